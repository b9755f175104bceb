// The one list of every problem `code` the exchange answers with: its HTTP status and what it
// means. /skill.md's error table is generated from it (`npm run docs:errors`), `errors.*` and
// the gateway's `problem()` only take codes from it, and a test scans apps/*/src and libs/*/src
// for any other code thrown. A new code goes here first.
//
// `<name>` in a key stands for a family (`kill_switch:<name>` covers `kill_switch:faucet`).
// `internal: true`: never reaches a client as such (the gateway answers `internal` instead);
// listed so the scan stays complete, left out of the published table.

export interface ErrorCodeInfo {
  readonly status: number;
  readonly meaning: string;
  readonly internal?: true;
}

export const ERROR_CODES = {
  // 400 — the request is wrong whatever the state.
  validation_failed: {
    status: 400,
    meaning:
      'body/query/path does not match the schema; `errors[]` has `{pointer, message}`. Unknown fields are refused, and so is a string holding NUL (`\\u0000`) anywhere, free-form `payload` objects and their keys included, and a number beyond a 64-bit float (`1e400`: JSON allows it, no service can store it)',
  },
  malformed_json: { status: 400, meaning: 'the body is not JSON (or is empty with `Content-Type: application/json`)' },
  payload_too_deep: { status: 400, meaning: 'JSON nested deeper than 64 levels (objects and arrays count one level each)' },
  bad_url: { status: 400, meaning: 'the URL is not valid percent-encoding' },
  bad_request: { status: 400, meaning: 'the request is not valid HTTP' },
  invalid_limit: { status: 400, meaning: '`limit` is not an integer from 1 to 200' },
  invalid_cursor: { status: 400, meaning: '`cursor` is not one this list gave out (pass `next_cursor` back unchanged)' },
  key_proof_failed: { status: 400, meaning: '"key ownership proof failed": the registration proof signature does not verify' },
  invalid_week_start: { status: 400, meaning: '`week_start` is not a Monday `YYYY-MM-DD` (UTC), or that week has not started yet' },
  invalid_signal_time: { status: 400, meaning: 'a matching signal\'s `occurred_at` is in the future or older than 30 days' },
  run_currency_mismatch: { status: 400, meaning: 'the stages of a workflow run have shard budgets in more than one currency' },
  duplicate_stage_name: { status: 400, meaning: 'two stages of a workflow run have the same `name`' },
  invalid_window: { status: 400, meaning: '`window` is not a month `YYYY-MM` (or a `from`/`to` range is reversed or over 366 days)' },
  invalid_amount: { status: 400, meaning: 'an amount is not a positive decimal string with at most 6 fraction digits, or is out of range' },
  unsupported_currency: { status: 400, meaning: 'the currency is neither `CREDIT` nor an ISO 4217 code the exchange supports' },
  self_transfer: { status: 400, meaning: 'a transfer or payment to the same agent' },
  amount_exceeds_hold: { status: 400, meaning: 'consuming more than the hold holds; `amount` and `held`' },
  invalid_expires_at: { status: 400, meaning: 'a hold\'s `expires_at` is not in the future' },
  signing_key_reuse: { status: 400, meaning: 'a crypto payout address is one of the agent\'s signing keys' },
  idempotency_key_required: { status: 400, meaning: 'a balance mutation without an idempotency key (body `idempotency_key` or header `Idempotency-Key`)' },
  invalid_idempotency_key: { status: 400, meaning: 'the idempotency key is not 1–255 printable ASCII characters, or the header is repeated' },
  idempotency_key_mismatch: { status: 400, meaning: 'the `Idempotency-Key` header and the body `idempotency_key` differ' },
  invalid_deadline: { status: 400, meaning: 'a contract deadline that is not in the future' },
  invalid_eta: { status: 400, meaning: 'an offer `eta` that is not in the future' },
  invalid_turnaround: { status: 400, meaning: '`turnaround` is not an ISO 8601 duration such as `PT24H`' },
  invalid_score: { status: 400, meaning: 'a verification `score` outside 0–1' },
  invalid_seller_share: { status: 400, meaning: '`seller_share_bps` is 1–9999 and only for the outcome `split`' },
  currency_mismatch: { status: 400, meaning: 'the price is not in the contract budget\'s currency' },
  price_exceeds_budget: { status: 400, meaning: 'an offer priced above the contract budget' },
  verifier_required: { status: 400, meaning: '`verification_mode: verifier` (or its template) without `verifier_id`' },
  verifier_not_allowed: { status: 400, meaning: '`verifier_id` is only for `verification_mode: verifier`' },
  verifier_is_buyer: { status: 400, meaning: 'the named verifier is the buyer' },
  report_signature_invalid: { status: 400, meaning: 'the verification report signature does not verify' },
  object_signature_invalid: { status: 400, meaning: 'a signed object\'s signature does not verify over its payload' },
  ack_signature_invalid: { status: 400, meaning: 'an artifact acknowledgement\'s signature does not verify' },
  casefile_unreadable: { status: 400, meaning: 'the casefile archive cannot be read (not a tar.gz with `docket.json`)' },
  content_hash_mismatch: { status: 400, meaning: 'uploaded bytes do not hash to the upload\'s declared `content_sha256`' },
  export_too_large: { status: 400, meaning: 'an export (casefile, receipts, attestations) over its record limit; `max` — narrow it' },
  fixture_invalid: { status: 400, meaning: 'a fixture object\'s payload is malformed' },
  malformed_multipart: { status: 400, meaning: 'a multipart upload that cannot be parsed' },
  invalid_merchant_domain: { status: 400, meaning: '`merchant_domain` is not a lower-case DNS name (letters, digits, `-`, dots; no scheme, port or path)' },
  ucp_payload_invalid: { status: 400, meaning: 'a UCP part of the request (`line_items`, `buyer`, `context`, `payment`) does not validate against the UCP 2026-04-08 schema; `errors[]` says where' },
  mandate_signature_invalid: { status: 400, meaning: 'the mandate `signature` does not verify with a key of `signer_agent_id` over the canonical mandate (/skill.md "Mandates")' },
  approval_signature_invalid: { status: 400, meaning: 'the approval `signature` does not verify with a key of `approver_id` over the canonical approval (/skill.md "Approvals")' },
  webhook_rejected: { status: 400, meaning: 'an order webhook refused for what it carries (`digest_mismatch`, `algorithm_unsupported`, `header_repeated`, `webhook_id_missing`, `order_schema_invalid`, …: `reason`); nothing kept' },
  totals_mismatch: { status: 400, meaning: 'the merchant\'s totals do not add up (sum of non-total entries ≠ total): the checkout is never completed' },

  // 401 — who you are is not established.
  unauthenticated: { status: 401, meaning: 'no credentials, or an incomplete set of `X-Agent-*` headers (the missing ones are named)' },
  agent_nonce_reused: {
    status: 401,
    meaning: 'this `X-Agent-Nonce` was already used within the timestamp window: a replay, nothing was executed; sign again with a new nonce',
  },
  webhook_unauthenticated: {
    status: 401,
    meaning: 'an order webhook whose signer is not established (`signature_missing`, `signature_invalid`, `key_not_found`, `timestamp_out_of_window`, …: `reason`); nothing kept',
  },
  agent_nonce_invalid: { status: 401, meaning: '`X-Agent-Nonce` is not 16–64 characters of `A–Z a–z 0–9 - _`' },

  invalid_period: { status: 400, meaning: '`period` is not a UTC month `YYYY-MM`, or it has not begun' },
  meter_event_in_future: { status: 400, meaning: 'the meter event\'s `occurred_at` is more than 5 minutes ahead of the exchange clock' },
  budget_currency_mismatch: { status: 400, meaning: 'the proxy call\'s `currency` is not its budget\'s (`budget_currency`)' },

  // 402 — payment required.
  budget_exceeded: {
    status: 402,
    meaning: 'the proxy call\'s `cost` is over what its budget (hold or mandate) has left (`limit`, `spent`, `remaining`, `cost`); nothing was recorded',
  },

  // 403 — known caller, not allowed.
  origin_not_allowed: {
    status: 403,
    meaning: 'a checkout `origin` names a contract or workflow run the buyer takes no part in (not its buyer or awarded seller, not the run\'s owner)',
  },
  forbidden: { status: 403, meaning: 'the bearer token is not an operator token, or another agent\'s resource' },
  operator_token_required: { status: 403, meaning: 'an operator-only route called with an agent signature' },
  agent_signature_invalid: { status: 403, meaning: '`X-Agent-Signature` does not verify with an unrevoked key of `X-Agent-Id`' },
  agent_timestamp_invalid: { status: 403, meaning: '`X-Agent-Timestamp` is malformed or more than 300 s from the exchange clock' },
  agent_frozen: {
    status: 403,
    meaning: 'the agent is frozen: reads work, mutations do not; nobody (the operator included) moves its money, except lifecycle refunds',
  },
  'hold_controlled_by_<service>': {
    status: 403,
    meaning: 'the hold is controlled by a service (`hold_controlled_by_market`: a contract\'s escrow; `hold_controlled_by_commerce`: a purchase in flight): only its lifecycle moves it',
  },
  faucet_cap_exceeded: { status: 403, meaning: 'the daily faucet cap of this category is reached; `resets_at`, `remaining_today`, `category`' },
  withdrawal_limit_exceeded: { status: 403, meaning: 'the daily withdrawal limit is reached; `limit`, `used_today`, `resets_at`' },
  faucet_unavailable: { status: 403, meaning: 'the faucet exists only in sandbox' },
  identity_level_insufficient: { status: 403, meaning: 'the agent\'s level (`current`) is below `required`' },
  identity_level_not_allowed: { status: 403, meaning: 'this identity level cannot be registered in this environment (sandbox: `SANDBOX_UNVERIFIED` only)' },
  acting_agent_mismatch: { status: 403, meaning: 'a party field (`buyer_id`, `seller_id`, `verifier_id`, `signer_agent_id`…) is not the acting agent' },
  self_dealing: { status: 403, meaning: 'an offer on your own contract' },
  conflict_of_interest: { status: 403, meaning: 'an offer on a contract you verify' },
  not_awarded_seller: { status: 403, meaning: 'only the awarded seller may do this' },
  not_contract_verifier: { status: 403, meaning: 'the report\'s `verifier_id` does not verify this contract (its verifier, or the buyer in `buyer` mode)' },
  not_contract_party: { status: 403, meaning: 'only the contract\'s buyer or awarded seller (or the operator) may do this, e.g. attach an artifact or mint that role\'s alias' },
  not_offer_seller: { status: 403, meaning: 'only the offer\'s seller may withdraw it' },
  not_allowed_to_cancel: { status: 403, meaning: 'the buyer (or operator) cancels while `open`, the awarded seller while `awarded`' },
  operator_required: { status: 403, meaning: 'the service allows this to the operator only' },
  access_denied: { status: 403, meaning: 'you may not read this object or artifact (or upload without credentials)' },
  reserved_type: { status: 403, meaning: '`party_alias_token` and `identity_reveal` objects are minted by the exchange only' },
  not_a_party: { status: 403, meaning: 'posting to a contract\'s thread without being one of its parties' },
  resale_not_party: { status: 403, meaning: '`resale_of` names a contract you are not the awarded seller of' },
  not_alias_owner: { status: 403, meaning: 'only the aliased agent or the operator may reveal an alias' },
  not_session_buyer: { status: 403, meaning: 'only the checkout session\'s buyer (or the operator, for reads) may do this' },
  not_mandate_signer: { status: 403, meaning: 'only the mandate\'s signer may do this (approve, change autonomy)' },
  not_intent_agent: { status: 403, meaning: 'the checkout names an intent made for another agent' },
  intent_expired: { status: 403, meaning: 'the checkout\'s intent has expired (`expires_at`)' },
  intent_merchant_not_allowed: { status: 403, meaning: 'the checkout\'s merchant is not among its intent\'s `merchants`' },
  intent_sku_not_allowed: { status: 403, meaning: 'a line item is not among the intent\'s `skus` (`sku`)' },
  intent_budget_exceeded: { status: 403, meaning: 'the checkout total is over its intent\'s budget (`budget`, `total`)' },
  intent_currency_mismatch: { status: 403, meaning: 'the checkout\'s currency is not its intent\'s budget currency' },
  intent_refundability_unmet: { status: 403, meaning: 'the intent requires refundability and the merchant\'s profile has no UCP order capability (`dev.ucp.shopping.order`) to report refunds' },
  not_deal_buyer: { status: 403, meaning: 'only the purchase\'s buyer may do this (feedback, opening a case; reads: also the operator)' },
  mandate_not_for_agent: { status: 403, meaning: 'the mandate was not granted to this buyer (`agent_id` differs)' },
  mandate_inactive: { status: 403, meaning: 'the mandate is `paused`, `revoked`, `expired` or `exhausted`; `status`' },
  mandate_expired: { status: 403, meaning: 'the mandate\'s `expires_at` has passed' },
  mandate_merchant_not_allowed: { status: 403, meaning: 'the merchant is outside the mandate\'s `scope.merchants`' },
  mandate_category_not_allowed: { status: 403, meaning: 'a line item\'s category is outside the mandate\'s `scope.categories`' },
  mandate_sku_not_allowed: { status: 403, meaning: 'a line item\'s sku is outside the mandate\'s `scope.skus`' },
  mandate_currency_mismatch: { status: 403, meaning: 'the checkout is in another currency than the mandate\'s `limits.currency`' },
  mandate_per_transaction_exceeded: { status: 403, meaning: 'the checkout total is above the mandate\'s `limits.per_transaction`' },
  mandate_total_exceeded: { status: 403, meaning: 'spent + in flight + this total would pass the mandate\'s `limits.total`' },
  mandate_daily_limit_exceeded: { status: 403, meaning: 'today\'s spend under the mandate plus this total would pass `autonomy.daily_limit`' },
  approval_denied: { status: 403, meaning: 'the mandate\'s signer denied this checkout: it cannot be completed' },

  // 404 — unknown id or route.
  not_found: { status: 404, meaning: 'no such route' },
  agent_not_found: { status: 404, meaning: 'unknown agent' },
  key_not_found: { status: 404, meaning: 'the agent has no such public key' },
  hold_not_found: { status: 404, meaning: 'unknown hold' },
  deposit_not_found: { status: 404, meaning: 'unknown deposit' },
  withdrawal_not_found: { status: 404, meaning: 'unknown withdrawal' },
  payout_destination_not_found: { status: 404, meaning: 'unknown payout destination' },
  receipt_not_found: { status: 404, meaning: 'unknown receipt, or the contract has none yet' },
  contract_not_found: { status: 404, meaning: 'unknown contract' },
  listing_not_found: { status: 404, meaning: 'unknown listing' },
  offer_not_found: { status: 404, meaning: 'unknown offer' },
  result_not_found: { status: 404, meaning: 'unknown result' },
  dispute_not_found: { status: 404, meaning: 'unknown dispute' },
  verifier_not_found: { status: 404, meaning: 'unknown verifier' },
  verification_not_found: { status: 404, meaning: 'the contract has no verification report yet' },
  contract_template_not_found: { status: 404, meaning: 'unknown contract template' },
  work_product_template_not_found: { status: 404, meaning: 'unknown work-product template' },
  fixture_not_found: { status: 404, meaning: 'unknown fixture' },
  thread_not_found: { status: 404, meaning: 'unknown coordination thread, or one of a contract you are not a party of' },
  resale_review_not_found: { status: 404, meaning: 'unknown resale review' },
  object_not_found: { status: 404, meaning: 'unknown object' },
  artifact_not_found: { status: 404, meaning: 'unknown artifact' },
  envelope_not_found: { status: 404, meaning: 'the artifact has no envelope' },
  alias_not_found: { status: 404, meaning: 'unknown party alias' },
  mandate_not_found: { status: 404, meaning: 'unknown mandate' },
  checkout_session_not_found: { status: 404, meaning: 'unknown checkout session' },
  intent_not_found: { status: 404, meaning: 'unknown commerce intent' },
  purchase_not_found: { status: 404, meaning: 'unknown purchase (`deal_id`)' },
  case_not_found: { status: 404, meaning: 'unknown post-purchase case' },
  category_not_found: { status: 404, meaning: 'no contract, listing or thread has this tag' },
  workflow_run_not_found: { status: 404, meaning: 'unknown workflow run, or one you do not own' },
  subscription_not_found: { status: 404, meaning: 'unknown task event subscription, or one you do not own' },
  task_event_not_found: { status: 404, meaning: 'a consumed event id (`event_ids[]` or `up_to`) is not an event of this subscription; nothing was acknowledged' },

  // 405, 408
  method_not_allowed: { status: 405, meaning: 'the path exists but not with this method; `Allow` lists the methods' },
  request_timeout: { status: 408, meaning: 'the request was not received in time' },

  epoch_not_found: { status: 404, meaning: 'no meter epoch table has this `epoch` name' },
  meter_event_not_found: { status: 404, meaning: 'unknown meter event (or one neither signed by nor about the calling agent)' },
  meter_epoch_table_not_found: { status: 404, meaning: 'unknown meter epoch table' },
  billing_projection_not_found: { status: 404, meaning: 'unknown billing projection' },
  period_receipt_not_found: { status: 404, meaning: 'unknown subscription period receipt' },
  proxy_run_not_found: { status: 404, meaning: 'the agent recorded no proxy call with this `run_id`' },

  // 409 — the state does not allow it.
  invalid_state: { status: 409, meaning: 'the resource\'s state does not allow this move; `current` and `wanted`' },
  agent_id_exists: { status: 409, meaning: '"agent_id already exists"' },
  proof_nonce_used: { status: 409, meaning: 'this `proof_nonce` was used before (each may be used once, ever)' },
  pubkey_in_use: { status: 409, meaning: 'a `primary_pubkey` or `pubkey_set` key already belongs to another agent' },
  primary_key_revocation: { status: 409, meaning: 'the primary key cannot be revoked (revoke keys of `pubkey_set`)' },
  insufficient_funds: { status: 409, meaning: 'not enough available funds; `currency`, `available`, `required`' },
  idempotency_in_progress: { status: 409, meaning: 'a request with this idempotency key is still running; retry later with the same key' },
  concurrent_update: { status: 409, meaning: 'another update of the same record won the race; retry' },
  offer_exists: { status: 409, meaning: 'one submitted offer per seller and contract' },
  verifier_exists: { status: 409, meaning: 'one verifier profile per agent' },
  dispute_window_closed: { status: 409, meaning: 'disputes close 7 days after settlement' },
  deadline_passed: { status: 409, meaning: 'the contract\'s deadline has passed; `deadline`' },
  resale_review_pending: { status: 409, meaning: 'a resale contract cannot be awarded until an operator approves its lineage' },
  resale_depth_exceeded: { status: 409, meaning: 'more than 3 resales deep' },
  resale_cycle: { status: 409, meaning: 'a buyer upstream in the resale lineage may not offer on it' },
  alias_agent_mismatch: { status: 409, meaning: 'the contract\'s alias for this role belongs to another agent' },
  alias_collision: { status: 409, meaning: 'no unused alias could be drawn; retry' },
  upload_not_committed: { status: 409, meaning: 'the upload ended without its commit: nothing was stored' },
  approval_required: { status: 409, meaning: 'the checkout waits for the mandate signer\'s approval (`approval: pending`; `reason`): POST …/approval first' },
  approval_not_pending: { status: 409, meaning: 'an approval decision for a checkout that is not waiting for one; `approval`' },
  checkout_not_ready: { status: 409, meaning: 'the merchant\'s checkout is not `ready_for_complete` (`status`, and its `messages`)' },
  feedback_exists: { status: 409, meaning: 'feedback for this deal was already recorded by its buyer (once per deal)' },
  refund_exceeds_paid: { status: 409, meaning: 'the refunds of a purchase would add up to more than was paid; `paid`, `refunded`, `requested`' },

  epoch_mismatch: { status: 409, meaning: 'the named epoch table does not price the event\'s `meter`, or does not cover its `occurred_at`' },
  epoch_overlap: { status: 409, meaning: 'another epoch table prices one of the meters for an overlapping time range (`meter`, `other_epoch`)' },
  epoch_exists: { status: 409, meaning: 'an epoch table of this name exists with other content (epoch tables are immutable)' },
  billing_period_closed: {
    status: 409,
    meaning: 'the meter event\'s period is closed: its subject\'s period receipt was emitted, or it is older than the previous month',
  },
  projection_not_attached: { status: 409, meaning: 'emit needs a billing projection attached to the period receipt first' },
  projection_stale: { status: 409, meaning: 'meter events changed since the attached projection was computed; create and attach a new one' },
  projection_too_large: {
    status: 409,
    meaning: 'the period has more than 10 000 meter events for the agent, or its signed receipt would exceed 1 MiB (`event_count`, `bytes`): report usage aggregated into fewer events',
  },
  proxy_run_too_large: { status: 409, meaning: 'the run has more than 4 000 proxy calls, more than one casefile holds (`max_calls`)' },
  period_not_ended: { status: 409, meaning: 'a period receipt is emitted only once its month has ended (`ends_at`)' },
  budget_unavailable: {
    status: 409,
    meaning: 'the proxy call\'s budget cannot be used: the hold is not an active agent-controlled hold of the agent, or the mandate is not active, has expired or is for another agent (`reason`)',
  },

  // 413–451
  payload_too_large: {
    status: 413,
    meaning: 'body over 1 MiB (artifacts: content over 25 MiB; casefile archives: past a reading limit, section 8)',
  },
  uri_too_long: { status: 414, meaning: 'a path segment over 512 characters' },
  unsupported_media_type: { status: 415, meaning: 'the body is not `application/json` (or multipart where an upload allows it)' },
  idempotency_key_reused: { status: 422, meaning: 'the idempotency key was used with another body' },
  profile_malformed: { status: 422, meaning: 'the merchant\'s `/.well-known/ucp` is not a valid UCP 2026-04-08 business profile; `errors[]`' },
  profile_unreachable: { status: 424, meaning: 'the merchant\'s profile could not be fetched (not HTTPS, a redirect, a network error, a non-2xx status or a timeout); `reason`' },
  rate_limited: { status: 429, meaning: 'over a rate limit (section 10); wait `Retry-After` seconds' },
  headers_too_large: { status: 431, meaning: 'request line and headers over 16 KiB' },
  artifact_removed: { status: 451, meaning: 'the artifact was taken down; `detail` says why' },

  // 5xx — retry later; nothing was changed unless the row says otherwise.
  internal: { status: 500, meaning: 'an unexpected error; quote `request_id` when you report it' },
  merchant_protocol_error: { status: 502, meaning: 'the merchant answered outside the UCP schema or protocol (kept as evidence); nothing was paid' },
  merchant_unavailable: { status: 502, meaning: 'the merchant could not be reached or failed (5xx); a complete in progress released the hold' },
  not_implemented: { status: 501, meaning: 'not implemented' },
  service_unavailable: { status: 503, meaning: 'a backing service is unavailable, or the gateway is shutting down; retry later' },
  read_only: { status: 503, meaning: 'the exchange is in read-only mode' },
  'kill_switch:<name>': { status: 503, meaning: 'that function is switched off (e.g. `kill_switch:withdrawals`)' },
  market_restricted: { status: 503, meaning: 'the market integrity state `restricted` blocks new contracts' },
  market_halted: { status: 503, meaning: 'the market integrity state `halted` blocks new contracts, awards and settlements' },
  wallet_unavailable: { status: 503, meaning: 'the market could not reach the wallet; the step finishes on its own: retry with the same idempotency key' },
  identity_unavailable: { status: 503, meaning: 'identity could not be reached for this step (e.g. minting a buyer alias); nothing was changed' },
  registry_unavailable: { status: 503, meaning: 'the registry could not be reached (e.g. storing an alias token); nothing was changed' },
  commerce_unavailable: { status: 503, meaning: 'commerce could not be reached (e.g. to read a mandate budget); nothing was recorded' },
  market_unavailable: { status: 503, meaning: 'the market could not be reached (e.g. to check contract parties); nothing was changed' },
  deadline_exceeded: { status: 504, meaning: 'a backing service did not answer in time; retry (with the same idempotency key)' },
  merchant_timeout: { status: 504, meaning: 'the merchant did not answer in time; a complete in progress released the hold (or the recovery worker finishes it)' },

  // Never a client's answer as such.
  unimplemented: { status: 501, meaning: 'a test double\'s unimplemented RPC', internal: true },
  casefile_invalid_input: { status: 500, meaning: 'a casefile builder called with bad input (a programming error)', internal: true },
} as const satisfies Record<string, ErrorCodeInfo>;

type ListedKey = keyof typeof ERROR_CODES;
/** Every code: the listed ones, with each `<name>` family widened to its template. */
type Widen<K> = K extends `${infer Prefix}<${string}>` ? `${Prefix}${string}` : K;
export type ErrorCode = Widen<ListedKey>;

const FAMILIES = (Object.keys(ERROR_CODES) as ListedKey[])
  .filter((k) => k.includes('<'))
  .map((key) => ({ key, prefix: key.slice(0, key.indexOf('<')) }));

/** The list entry of a code (a family member such as `kill_switch:faucet` gets its family's). */
export function errorCodeInfo(code: string): (ErrorCodeInfo & { key: string }) | undefined {
  if (Object.prototype.hasOwnProperty.call(ERROR_CODES, code)) return { key: code, ...ERROR_CODES[code as ListedKey] };
  const family = FAMILIES.find((f) => code.startsWith(f.prefix) && code.length > f.prefix.length);
  return family ? { key: family.key, ...ERROR_CODES[family.key] } : undefined;
}

/** The Markdown rows of /skill.md's error table, by status (list order within one status). */
export function renderErrorTable(): string {
  const rows = (Object.entries(ERROR_CODES) as Array<[string, ErrorCodeInfo]>)
    .filter(([, info]) => !info.internal)
    .map(([code, info], index) => ({ code, info, index }))
    .sort((a, b) => a.info.status - b.info.status || a.index - b.index)
    .map(({ code, info }) => `| ${info.status} | \`${code}\` | ${info.meaning.replace(/\|/g, '\\|')} |`);
  return ['| Status | code | Meaning |', '|---|---|---|', ...rows].join('\n');
}
