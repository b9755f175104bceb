import { problemResponses } from '../../schemas/common';

// What the commerce routes share: tags, error responses and the notes their descriptions repeat.
// Commerce checks who may do what itself (it gets the Actor); the gateway authenticates.

export const TAGS = ['Commerce protocol'];

/** Merchant calls: 422/424 profiles, 502/504 the merchant itself. */
export const MERCHANT_READ_ERRORS = problemResponses(400, 401, 403, 404, 422, 424, 429, 502, 503, 504);
/** Negotiation reads the merchant too, from a JSON body. */
export const NEGOTIATE_ERRORS = problemResponses(400, 401, 403, 413, 415, 422, 424, 429, 502, 503, 504);
export const MERCHANT_MUTATION_ERRORS = problemResponses(400, 401, 403, 404, 409, 413, 415, 422, 424, 429, 502, 503, 504);

export const BUYER_NOTE = 'Only the session’s buyer may do this (403 `not_session_buyer`); unknown session 404 `checkout_session_not_found`.';
export const READER_NOTE = 'The session’s buyer or the operator (others 403 `not_session_buyer`); unknown session 404 `checkout_session_not_found`.';
export const MERCHANT_NOTE =
  'Merchant failures: 422 `profile_malformed`, 424 `profile_unreachable`, 502 `merchant_protocol_error` / `merchant_unavailable`, ' +
  '504 `merchant_timeout`; a UCP part of the request that does not validate is 400 `ucp_payload_invalid` (`errors[]`).';
export const MANDATE_CHECK_NOTE =
  'The mandate is checked first: 404 `mandate_not_found`, 403 `mandate_not_for_agent`, `mandate_inactive`, `mandate_expired`, ' +
  '`mandate_merchant_not_allowed`, `mandate_category_not_allowed`, `mandate_sku_not_allowed`, `mandate_currency_mismatch`, ' +
  '`mandate_per_transaction_exceeded`, `mandate_total_exceeded`, `mandate_daily_limit_exceeded`. Above the step-up threshold ' +
  '(or a new merchant when so configured) `approval` becomes `pending`.';
