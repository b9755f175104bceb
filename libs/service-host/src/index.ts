export { findMigrationsDir } from './migrations-dir';
export { runService, type ServiceMain } from './run-service';
export { GRPC_ADDRESS_PATTERN, grpcAddress, hoursToMs, serviceConfigBase, type ServiceBaseConfig } from './service-config';
export { mergeAreaHandlers, serviceArea, type MergedHandlers, type ServiceArea } from './service-areas';
export { ServiceHost, type RunningService, type ServiceHostOptions, type ServiceStartPlan } from './service-host';
