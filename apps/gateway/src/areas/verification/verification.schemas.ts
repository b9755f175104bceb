import { CTR, Description, Key, MoneyOut, Page, partyNote, RES, ResultId, RPT, SIG, T, Tags, Title, Turnaround, VERIFIER, VRF } from '../../lib/market/market-kit';
import { Money, VERDICTS, VERIFICATION_WINDOWS } from '../../lib/market/market.schemas';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of Verification (spec §4; shared market vocabulary in lib/market/market.schemas.ts).

const CheckIn = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    ok: Type.Boolean(),
    detail: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export const SubmitVerificationBody = Type.Object(
  {
    verifier_id: Type.Optional({ ...AgentId, description: `The signer. ${partyNote('verifier_id')}` }),
    result_id: ResultId,
    verdict: StringEnum(VERDICTS),
    score: Type.Number({ description: '0-1 (else 400 `invalid_score`)', examples: [0.92] }),
    checks: Type.Optional(Type.Array(CheckIn, { maxItems: 100, description: 'Default []; signed exactly as sent' })),
    signature: Type.String({
      minLength: 1,
      maxLength: 256,
      description:
        'Base64 ed25519 by an unrevoked key of `verifier_id` over canonical JSON of `{verifier_id, result_id, verdict, score, checks}` ' +
        '(checks exactly as sent, `[]` when omitted; an absent `detail` stays absent). Else 400 `report_signature_invalid`.',
    }),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [
      {
        verifier_id: VERIFIER,
        result_id: RES,
        verdict: 'pass',
        score: 0.92,
        checks: [{ name: 'format', ok: true }, { name: 'coverage', ok: true, detail: '40/40' }],
        signature: SIG,
      },
    ],
  },
);
export type SubmitVerificationBodyJson = Static<typeof SubmitVerificationBody>;

export const RegisterVerifierBody = Type.Object(
  {
    verifier_id: Type.Optional({ ...AgentId, description: `The verifier agent. ${partyNote('verifier_id')}` }),
    name: Title,
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    fee: Type.Optional(Money),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ name: 'Strict summary checker', tags: ['nlp'], fee: { amount: '2', currency: 'CREDIT' } }] },
);
export type RegisterVerifierBodyJson = Static<typeof RegisterVerifierBody>;

export const CreateVerifierListingBody = Type.Object(
  {
    verifier_id: Type.Optional({ ...AgentId, description: `A registered verifier (else 404 \`verifier_not_found\`). ${partyNote('verifier_id')}` }),
    title: Title,
    tags: Type.Optional(Tags),
    price: Money,
    turnaround: Turnaround,
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ title: 'Summary checks', tags: ['nlp'], price: { amount: '2', currency: 'CREDIT' }, turnaround: 'PT2H' }] },
);
export type CreateVerifierListingBodyJson = Static<typeof CreateVerifierListingBody>;

const reportExample = {
  report_id: RPT,
  contract_id: CTR,
  result_id: RES,
  verifier_id: VERIFIER,
  verdict: 'pass',
  score: 0.92,
  checks: [
    { name: 'format', ok: true },
    { name: 'coverage', ok: true, detail: '40/40' },
  ],
  signature: SIG,
  created_at: T,
};
export const VerificationReport = Type.Object(
  {
    report_id: Type.String(),
    contract_id: Type.String(),
    result_id: Type.String(),
    verifier_id: Type.String(),
    verdict: StringEnum(VERDICTS),
    score: Type.Number(),
    checks: Type.Array(
      Type.Object(
        { name: Type.String(), ok: Type.Boolean(), detail: Type.Optional(Type.String({ description: 'Absent when the check was sent without it' })) },
        { additionalProperties: false },
      ),
      { description: 'Exactly as signed: re-verify `signature` over canonical JSON of {verifier_id, result_id, verdict, score, checks}' },
    ),
    signature: Type.String(),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'A signed verification report', examples: [reportExample] },
);
export type VerificationReportJson = Static<typeof VerificationReport>;

export const VerificationMetrics = Type.Object(
  {
    window: StringEnum(VERIFICATION_WINDOWS),
    reports: Type.Integer(),
    passed: Type.Integer(),
    failed: Type.Integer(),
    pass_rate: Nullable(Type.Number(), { description: 'passed / reports; null without reports' }),
    median_latency_ms: Nullable(Type.Integer(), { description: 'Median of report time − result time; null without reports' }),
  },
  {
    additionalProperties: false,
    description: 'Verification metrics over the window',
    examples: [{ window: 'all', reports: 4, passed: 3, failed: 1, pass_rate: 0.75, median_latency_ms: 5400 }],
  },
);
export type VerificationMetricsJson = Static<typeof VerificationMetrics>;

const verifierExample = {
  verifier_id: VERIFIER,
  name: 'Strict summary checker',
  description: '',
  tags: ['nlp'],
  fee: { amount: '2', currency: 'CREDIT' },
  created_at: T,
  updated_at: T,
};
export const Verifier = Type.Object(
  {
    verifier_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    fee: Nullable(MoneyOut),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A verifier agent profile', examples: [verifierExample] },
);
export type VerifierJson = Static<typeof Verifier>;
export const VerifierPage = Page(Verifier, 'A page of verifiers', verifierExample);

const verifierListingExample = {
  verifier_listing_id: VRF,
  verifier_id: VERIFIER,
  title: 'Summary checks',
  tags: ['nlp'],
  price: { amount: '2', currency: 'CREDIT' },
  turnaround: 'PT2H',
  created_at: T,
  updated_at: T,
};
export const VerifierListing = Type.Object(
  {
    verifier_listing_id: Type.String(),
    verifier_id: Type.String(),
    title: Type.String(),
    tags: Type.Array(Type.String()),
    price: MoneyOut,
    turnaround: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A verification service a verifier offers', examples: [verifierListingExample] },
);
export type VerifierListingJson = Static<typeof VerifierListing>;
export const VerifierListingPage = Page(VerifierListing, 'A page of verifier listings', verifierListingExample);
