import { CTR, Key, LongText, Page, partyNote, RES, SELLER, SHA, T } from '../../lib/market/market-kit';
import { RESULT_STATUSES } from '../../lib/market/market.schemas';
import { AgentId, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of Results (spec §4; shared market vocabulary in lib/market/market.schemas.ts).

export const SubmitResultBody = Type.Object(
  {
    seller_id: Type.Optional({ ...AgentId, description: `The awarded seller. ${partyNote('seller_id')}` }),
    summary: LongText('What was delivered'),
    artifact_refs: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 80, description: '`sha256:<64 hex>`' }), { maxItems: 100, examples: [[SHA]] }),
    ),
    payload: Type.Optional(Type.Unknown({ description: 'Any JSON value, at most 256 KiB serialized' })),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [{ summary: '40 summaries attached', artifact_refs: [SHA], payload: { summaries: 40 }, idempotency_key: 'result-001' }],
  },
);
export type SubmitResultBodyJson = Static<typeof SubmitResultBody>;

const resultExample = {
  result_id: RES,
  contract_id: CTR,
  seller_id: SELLER,
  summary: '40 summaries attached',
  artifact_refs: [SHA],
  payload: { summaries: 40 },
  status: 'submitted',
  created_at: T,
  updated_at: T,
};
export const Result = Type.Object(
  {
    result_id: Type.String(),
    contract_id: Type.String(),
    seller_id: Type.String(),
    summary: Type.String(),
    artifact_refs: Type.Array(Type.String()),
    payload: Type.Unknown({ description: 'The JSON value submitted, or null' }),
    status: StringEnum(RESULT_STATUSES),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A delivery against an awarded contract', examples: [resultExample] },
);
export type ResultJson = Static<typeof Result>;
export const ResultPage = Page(Result, 'A page of results', resultExample);
