import { Type, type Static } from 'typebox';
import { Cursor, Limit, NextCursor, PublicKey, Timestamp } from '../../schemas/common';
import { UcpObject, T } from './profile.schemas';

// REST shapes of a checkout's evidence (DESIGN §4 Commerce): every message exchanged with the
// merchant, hash-chained per session, and the casefile docket commerce signs over them.

const SESSION = 'cks_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';

export const ArtifactsQuery = Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }, { additionalProperties: false });

const evidenceExample = {
  evidence_id: 'evd_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  commerce_session_id: SESSION,
  seq: 1,
  kind: 'merchant_request',
  operation: 'create_checkout',
  content: { method: 'POST', url: 'https://sandbox-merchant.local/ucp/checkout-sessions', headers: {}, body: {} },
  content_sha256: 'b'.repeat(64),
  prev_hash: '0'.repeat(64),
  hash: 'c'.repeat(64),
  schema_result: 'valid',
  recorded_at: T,
};

export const EvidenceItem = Type.Object(
  {
    evidence_id: Type.String(),
    commerce_session_id: Type.String(),
    seq: Type.Integer({ description: 'Position in the session’s chain, from 1' }),
    kind: Type.String({ description: '`merchant_request`, `merchant_response`, `merchant_error`, `order_webhook`, `approval`, `mandate_check` or `intent`' }),
    operation: Type.String({ description: 'UCP operation (`create_checkout`, `complete_checkout`, `order_webhook`, …)' }),
    content: UcpObject('What was recorded: {method, url, headers, status?, body}', evidenceExample.content),
    content_sha256: Type.String({ description: 'sha256 hex of canonical JSON of `content`' }),
    prev_hash: Type.String({ description: '`hash` of the previous item (64 zeros for the first)' }),
    hash: Type.String({ description: 'sha256 hex of (prev_hash ‖ content_sha256)' }),
    schema_result: Type.String({ description: '`valid`, `invalid` or `not_applicable` against the UCP schema' }),
    recorded_at: Timestamp,
  },
  { additionalProperties: false, description: 'One message exchanged with the merchant, hash-chained', examples: [evidenceExample] },
);
export type EvidenceItemJson = Static<typeof EvidenceItem>;

export const EvidencePage = Type.Object(
  {
    items: Type.Array(EvidenceItem),
    next_cursor: NextCursor,
    chain_valid: Type.Boolean({ description: 'Whether the whole chain recomputes from the stored items' }),
  },
  { additionalProperties: false, description: 'The session’s evidence in chain order', examples: [{ items: [evidenceExample], next_cursor: null, chain_valid: true }] },
);

const docketExample = { docket_id: 'dkt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e', kind: 'commerce_checkout', signature: 'Zm9v…' };
const Docket = UcpObject('The casefile docket, signed by the exchange key', docketExample);

export const CasefileExportBody = Type.Object({}, { additionalProperties: false, examples: [{}] });
export const CheckoutDocket = Type.Object(
  { docket: Docket },
  { additionalProperties: false, description: 'The checkout’s casefile docket (evidence chain, mandate, approval, purchase)', examples: [{ docket: docketExample }] },
);

export const CasefileVerifyBody = Type.Object(
  {
    docket: Type.Optional(UcpObject('A docket to verify (default: export the stored session and verify that)', docketExample)),
    exchange_public_key: Type.Optional({ ...PublicKey, description: 'Verify against this key instead of the exchange’s own' }),
  },
  { additionalProperties: false, examples: [{}] },
);

export const CheckoutCasefileVerdict = Type.Object(
  {
    valid: Type.Boolean(),
    checks: Type.Array(
      Type.Object({ ref: Type.String(), ok: Type.Boolean(), reason: Type.Optional(Type.String()) }, { additionalProperties: false }),
      { description: 'Each check (signature, chain, items) and why it failed' },
    ),
    docket_id: Type.String(),
  },
  {
    additionalProperties: false,
    description: 'Whether a checkout casefile docket verifies',
    examples: [{ valid: true, checks: [{ ref: 'signature', ok: true }, { ref: 'evidence_chain', ok: true }], docket_id: docketExample.docket_id }],
  },
);
export type CheckoutCasefileVerdictJson = Static<typeof CheckoutCasefileVerdict>;
