export { createUcpValidator, UCP_SCHEMA_IDS, type UcpValidator, type UcpSchemaName, type CheckoutMessage, type UcpView } from './validator';
export { type UcpValidationError, type UcpValidationResult } from './validation-errors';
export { resolveView, type UcpDirection, type UcpOperation, type ViewOptions } from './request-view';
export { negotiate, CHECKOUT_CAPABILITY, type NegotiationResult, type NegotiationOptions, type NegotiatedCapabilities } from './negotiation';
export { shoppingRestEndpoint, findSigningKey, SHOPPING_SERVICE } from './profile';
export { buildUcpAgentHeader, parseUcpAgentHeader, UCP_AGENT_HEADER, type UcpAgent, type SfBareItem } from './ucp-agent';
export type * from './profile-types';
