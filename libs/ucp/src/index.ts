export { createUcpValidator, UCP_SCHEMA_IDS, type UcpValidator, type UcpSchemaName, type CheckoutMessage, type UcpView } from './validator';
export { type UcpValidationError, type UcpValidationResult } from './validation-errors';
export { resolveView, type UcpDirection, type UcpOperation, type ViewOptions } from './request-view';
