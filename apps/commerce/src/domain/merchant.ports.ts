import type { UcpCheckout, UcpMessage, UcpProfileJson } from './ucp-types';

// The port through which checkout talks to merchants (implemented by clients/ucp-merchant.client.ts).
// It never writes to the database: it returns the messages exchanged so the caller keeps them as
// evidence in its own transaction.

export type UcpOperation = 'create_checkout' | 'get_checkout' | 'update_checkout' | 'complete_checkout' | 'cancel_checkout';
export type SchemaResult = 'valid' | 'invalid' | 'not_applicable';

/** One HTTP message exchanged with a merchant, as kept in evidence (headers lower-cased). */
export interface RecordedMessage {
  kind: 'merchant_request' | 'merchant_response' | 'merchant_error';
  operation: string;
  content: {
    method?: string;
    url: string;
    status?: number;
    headers: Record<string, string>;
    /** Parsed JSON body, or the raw text when it is not JSON; null when none. */
    body: unknown;
    /** Network error, timeout or schema errors, when there is one. */
    error?: string;
  };
  schemaResult: SchemaResult;
}

export type MerchantOutcome =
  /** A checkout object that validated against the UCP response schema. */
  | { kind: 'checkout'; checkout: UcpCheckout; httpStatus: number }
  /** A UCP error_response (HTTP 200, no resource): business outcome, e.g. out of stock. */
  | { kind: 'business_error'; messages: UcpMessage[]; continueUrl?: string; httpStatus: number }
  /** Outside the schema, or an unexpected HTTP status (4xx other than the UCP ones): 502 merchant_protocol_error. */
  | { kind: 'protocol_error'; reason: string; httpStatus?: number }
  /** Network failure or 5xx: 502 merchant_unavailable. */
  | { kind: 'unavailable'; reason: string; httpStatus?: number }
  /** No answer within MERCHANT_TIMEOUT_MS: 504 merchant_timeout. */
  | { kind: 'timeout' };

export interface MerchantCall {
  outcome: MerchantOutcome;
  /** The request and (when there was one) the response or error, in order. */
  messages: RecordedMessage[];
}

export interface MerchantProfileView {
  merchantDomain: string;
  profile: UcpProfileJson;
  /** The URL the profile was fetched from. */
  sourceUrl: string;
  /** The shopping service's REST endpoint (no trailing slash). */
  endpoint: string;
  fetchedAt: Date;
  cacheExpiresAt: Date;
}

export interface MerchantCallInput {
  /** The merchant's checkout id (get, update, complete, cancel). */
  checkoutId?: string;
  /** The request body (create, update, complete; cancel sends {}). */
  body?: Record<string, unknown>;
  /** Sent as Idempotency-Key on create/update/complete/cancel (a UUID; stable across retries of one step). */
  idempotencyKey?: string;
}

export interface MerchantPort {
  /**
   * The merchant's validated business profile (cached ≥ 60 s). Throws DomainError
   * invalid_merchant_domain (400), profile_unreachable (424) or profile_malformed (422).
   */
  profile(merchantDomain: string, opts?: { refresh?: boolean }): Promise<MerchantProfileView>;
  /**
   * One UCP checkout operation, signed (RFC 9421, ES256 with the platform key) with UCP-Agent,
   * Request-Id and Idempotency-Key; the request body is validated against the UCP request view first
   * (invalid → throws 400 ucp_payload_invalid, nothing sent). Merchant-side failures are outcomes,
   * not throws; profile failures throw as in `profile`.
   */
  call(merchantDomain: string, operation: UcpOperation, input: MerchantCallInput): Promise<MerchantCall>;
  /**
   * The merchant whose profile lives at `profileUrl` (a webhook's UCP-Agent), MERCHANT_DIRECTORY
   * included; undefined when it names none (not `https://{domain}/.well-known/ucp` nor a mapped
   * base URL's). Optional so test doubles need not implement it: without it no webhook verifies.
   */
  merchantDomainOf?(profileUrl: string): string | undefined;
}
