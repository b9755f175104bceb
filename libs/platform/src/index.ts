export { ConfigError, readConfig } from './config';
export { createLogger, REDACTED_KEYS, type Logger } from './logger';
export { asciiEscape, domainErrorStatus, internalErrorStatus, readErrorDetails } from './error-trailer';
export { guardProcess, type ProcessGuardOptions } from './process-guard';
export { ERROR_CODES, errorCodeInfo, renderErrorTable, type ErrorCode, type ErrorCodeInfo } from './error-codes';
export { DomainError, ERROR_CODE_METADATA, ERROR_DETAILS_METADATA, ERROR_REPLAYED_METADATA, errors, isDomainError } from './errors';
export {
  ACTOR_METADATA,
  AGENT_ID_METADATA,
  callContextFromMetadata,
  REQUEST_ID_METADATA,
  TRACE_ID_METADATA,
  type CallContext,
} from './call-context';
export { unary } from './unary';
export { serverStream, streamErrorStatus, writeWithBackpressure } from './grpc/server-stream';
export { startGrpcServer, type GrpcServerHandle } from './grpc-server';
export { loopbackTarget, useInProcessCalls, type ClientMethod } from './grpc/in-process';
export {
  callOptionsFrom,
  callUnary,
  closeChannel,
  createServiceClient,
  unaryMethodsOf,
  DEFAULT_DEADLINE_MS,
  errorInfoFromGrpc,
  toMetadata,
  type CallOptions,
  type GrpcErrorInfo,
  type PromiseClient,
  type UnaryChannel,
} from './grpc-client';
export { createHealthClient, type HealthClient, type HealthStatus } from './health-client';
export { onShutdown, SHUTDOWN_TIMEOUT_MS_DEFAULT, type ShutdownStep } from './shutdown';
export {
  decodeCursor,
  encodeCursor,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_LIMIT_MIN,
  resolveLimit,
  toPage,
  type CursorKey,
} from './pagination';
export { isId, isUuidv7, newId, uuidv7, uuidv7Timestamp, type IdPrefix } from './ids';
export {
  formatAmount,
  MAX_AMOUNT_MICRO,
  MICRO_PER_UNIT,
  MIN_AMOUNT_MICRO,
  parseAmount,
  parsePositiveAmount,
} from './money';
export { OutageLatch } from './outage-latch';
export { Periodic } from './periodic';
export { CREDIT, ISO_4217_CODES, ISO_4217_PUBLISHED, isSupportedCurrency } from './currency';
export { isDnsName } from './dns-name';
