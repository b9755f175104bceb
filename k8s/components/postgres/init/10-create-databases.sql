-- One database per service; a service never reads another service's database.
CREATE DATABASE identity;
CREATE DATABASE wallet_ledger;
CREATE DATABASE market;
CREATE DATABASE registry;
CREATE DATABASE commerce;
CREATE DATABASE workflows;
CREATE DATABASE telemetry;
