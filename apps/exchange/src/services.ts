// The services the exchange runs, in start order. Adding a service: add it here, in
// exchange.ts (in-process start) and it is picked up by run-services.ts (one process each).
export interface ServiceSpec {
  /** Service name: apps/<name>, its database name and gRPC health service name. */
  name: string;
  /** Env var through which the gateway (and other services) reach its gRPC port. */
  grpcUrlEnv: string;
  /** Whether it owns a PostgreSQL database. */
  database: boolean;
}

export const SERVICES: readonly ServiceSpec[] = [
  { name: 'identity', grpcUrlEnv: 'IDENTITY_GRPC_URL', database: true },
  // After identity: it looks up wallet owners there (IDENTITY_GRPC_URL). It calls registry and
  // commerce (REGISTRY_GRPC_URL, COMMERCE_GRPC_URL) only for metering, billing and proxy budgets.
  { name: 'wallet-ledger', grpcUrlEnv: 'WALLET_LEDGER_GRPC_URL', database: true },
  // After both: it checks parties in identity and moves escrow through wallet-ledger.
  { name: 'market', grpcUrlEnv: 'MARKET_GRPC_URL', database: true },
  // After market: it checks signatures in identity, contract parties in market and reads
  // receipts from wallet-ledger. Identity calls it back (REGISTRY_GRPC_URL) only when minting aliases.
  { name: 'registry', grpcUrlEnv: 'REGISTRY_GRPC_URL', database: true },
  // After identity and wallet-ledger: it checks buyers and signatures in identity and pays merchants
  // through wallet-ledger holds; it reaches merchants over HTTPS (MERCHANT_DIRECTORY in sandbox).
  { name: 'commerce', grpcUrlEnv: 'COMMERCE_GRPC_URL', database: true },
  // After market, wallet-ledger and registry: it posts shard contracts in market (and follows its
  // events), checks the owner's balance in wallet-ledger and exports dockets through the registry.
  { name: 'workflows', grpcUrlEnv: 'WORKFLOWS_GRPC_URL', database: true },
  // Calls no one: it follows every event (exchange.>). Market asks it for matching signals
  // (TELEMETRY_GRPC_URL) only when recommending, so it may start last.
  { name: 'telemetry', grpcUrlEnv: 'TELEMETRY_GRPC_URL', database: true },
];

/** Distributed mode: service i listens on basePort + i. */
function grpcAddress(basePort: number, index: number, host: string): string {
  return `${host}:${basePort + index}`;
}

/** `{ IDENTITY_GRPC_URL: '127.0.0.1:50051', WALLET_LEDGER_GRPC_URL: '127.0.0.1:50052', MARKET_GRPC_URL: … }` for basePort 50051. */
export function serviceGrpcUrls(basePort: number, host = '127.0.0.1'): Record<string, string> {
  return Object.fromEntries(SERVICES.map((svc, i) => [svc.grpcUrlEnv, grpcAddress(basePort, i, host)]));
}

/** The same addresses by service name: `{ identity: '127.0.0.1:50051', 'wallet-ledger': … }`. */
export function serviceGrpcUrlsByName(basePort: number, host = '127.0.0.1'): Record<string, string> {
  return Object.fromEntries(SERVICES.map((svc, i) => [svc.name, grpcAddress(basePort, i, host)]));
}
