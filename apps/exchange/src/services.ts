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

export const SERVICES: readonly ServiceSpec[] = [{ name: 'identity', grpcUrlEnv: 'IDENTITY_GRPC_URL', database: true }];
