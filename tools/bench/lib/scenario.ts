// What the harness asks the load generator (lib/loadgen.ts, its own process) to do, and what it
// answers. Plain JSON both ways: the scenario goes in as argv[2], the result comes back on stdout.

export interface Agent {
  agentId: string;
  /** base64 32-byte ed25519 seed. */
  seed: string;
}

interface Timing {
  /** Measured window, after `warmupSeconds`. */
  seconds: number;
  warmupSeconds: number;
}

/** autocannon against one URL; `generator` decides what each request carries. */
export interface HttpScenario extends Timing {
  kind: 'http';
  name: string;
  url: string;
  connections: number;
  headers?: Record<string, string>;
  generator:
    | { type: 'static' }
    /** POST /v1/agents with a fresh key pair and registration proof per request. */
    | { type: 'register'; operatorToken: string; namespace: string }
    /** GET `path` signed as `agent` with a fresh nonce per request. */
    | { type: 'signed-get'; path: string; agent: Agent }
    /** POST /v1/wallets/{from}/transfer (operator + X-Agent-Id) between random wallets. */
    | { type: 'transfer'; operatorToken: string; wallets: string[]; amount: string };
}

/** Closed loop of gRPC Transfer calls straight to wallet-ledger over one channel. */
export interface GrpcTransferScenario extends Timing {
  kind: 'grpc-transfer';
  name: string;
  address: string;
  wallets: string[];
  amount: string;
  concurrency: number;
}

/** Closed loop of raw two-row SQL transfers on tables of their own. */
export interface PgTransferScenario extends Timing {
  kind: 'pg-transfer';
  name: string;
  databaseUrl: string;
  accounts: number;
  pool: number;
  concurrency: number;
}

/** `inFlight` loops, each driving whole contracts (create → offer → award → deliver → verify). */
export interface ContractsScenario extends Timing {
  kind: 'contracts';
  name: string;
  url: string;
  operatorToken: string;
  pairs: Array<{ buyer: Agent; seller: Agent }>;
  inFlight: number;
  price: string;
}

export type Scenario = HttpScenario | GrpcTransferScenario | PgTransferScenario | ContractsScenario;

export interface StepFigures {
  p50: number;
  p99: number;
  mean: number;
}

export interface LoadResult {
  name: string;
  /** Successful operations per second over the measured window. */
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  /** The first few failures, to show what went wrong. */
  sampleErrors: string[];
  /** Per step of a multi-step operation (contracts), in order. */
  steps?: Record<string, StepFigures>;
}
