export { findMigrationsDir } from './migrations-dir';
export { runService, type ServiceMain } from './run-service';
export { GRPC_ADDRESS_PATTERN, grpcAddress, serviceConfigBase, type ServiceBaseConfig } from './service-config';
export { ServiceHost, type RunningService, type ServiceHostOptions, type ServiceStartPlan } from './service-host';
