import agents from './agents';
import type { Area } from './area';
import billing from './billing';
import catalog from './catalog';
import commerce from './commerce';
import commerceIntents from './commerce-intents';
import contracts from './contracts';
import coordination from './coordination';
import disputes from './disputes';
import docs from './docs';
import gatewayProxy from './gateway-proxy';
import governance from './governance';
import health from './health';
import insights from './insights';
import integrity from './integrity';
import ledger from './ledger';
import listings from './listings';
import mandates from './mandates';
import metering from './metering';
import offers from './offers';
import postPurchase from './post-purchase';
import receipts from './receipts';
import registry from './registry';
import results from './results';
import telemetry from './telemetry';
import transparency from './transparency';
import ui from './ui';
import verification from './verification';
import wallets from './wallets';
import workflows from './workflows';

// Every area of the gateway, registered in this order by app.ts (the order of /openapi.json's
// paths). Adding an area: its folder under src/areas/ (index.ts = defineArea) and one entry here.
export const AREAS: readonly Area[] = [
  health,
  docs,
  agents,
  wallets,
  receipts,
  ledger,
  contracts,
  listings,
  offers,
  results,
  verification,
  disputes,
  integrity,
  insights,
  catalog,
  coordination,
  governance,
  registry,
  commerce,
  mandates,
  commerceIntents,
  postPurchase,
  transparency,
  workflows,
  telemetry,
  metering,
  billing,
  gatewayProxy,
  ui,
];
