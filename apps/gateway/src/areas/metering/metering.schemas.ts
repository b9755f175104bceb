import { type Static, Type } from 'typebox';
import { AgentId, StringEnum, Timestamp } from '../../schemas/common';
import { ObjectId, Signature } from '../registry/registry.schemas';
import { Currency } from '../wallets/wallets.schemas';

// REST shapes of Metering (spec "Metering", DESIGN §4 "Metering, billing, gateway proxy"): signed
// meter events and the operator's epoch pricing tables. Names, bounds and types are refused here;
// the wallet-ledger checks the signature, the epoch, the period rules and the prices.

export const T = '2026-11-21T18:00:00.000Z';
export const T_FROM = '2026-11-01T00:00:00.000Z';
export const T_TO = '2026-12-01T00:00:00.000Z';
export const REPORTER = 'acme:agent:gateway-1';
export const SUBJECT = 'acme:agent:buyer-1';
export const MEV = 'sha256:5f1c8b1a0c7e4b4f8f0d2b8a3b5e6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7';
export const TBL = 'sha256:7a0e3c2b1d4f5e6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c';
export const SIG = 'q3b1xB2p6oX0rVd8mW4m3z5cYVZ0k8w5Jm9T2Kc1cYb3oQm0d3n6eWfV3u2Hc1hY3l6r8wqQ0n2Xb8Qw3r5aAw==';
export const EXCHANGE_PUB = 'iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=';

/** Names of meters, units and epochs: a letter or digit, then letters, digits and `._:/-`. */
const Name = (maxLength: number, description: string, example: string) =>
  Type.String({ minLength: 1, maxLength, pattern: `^[A-Za-z0-9][A-Za-z0-9._:/-]{0,${maxLength - 1}}$`, description, examples: [example] });

export const MeterName = Name(64, 'Meter name (`^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$`)', 'llm.tokens');
export const UnitName = Name(32, 'Unit of the quantity (`^[A-Za-z0-9][A-Za-z0-9._:/-]{0,31}$`)', 'token');
export const EpochName = Name(64, 'Epoch table name (`^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$`)', '2026-11a');
/** A JSON integer (signed as such), 1 to 10^12. */
export const Quantity = Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: 'A positive JSON integer, at most 10^12', examples: [1200] });
export const UnitPrice = Type.String({
  minLength: 1,
  maxLength: 40,
  pattern: '^[0-9]{1,19}(\\.[0-9]{1,6})?$',
  description: 'Decimal string ≥ 0 with at most 6 fraction digits (price of one unit)',
  examples: ['0.000125'],
});
const Ref = Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$', description: 'Your own reference (1–255 printable ASCII): two usages otherwise identical differ by it', examples: ['req-7f3a'] });

const payloadExample = { meter: 'llm.tokens', subject_agent_id: SUBJECT, quantity: 1200, unit: 'token', occurred_at: T, epoch: '2026-11a', ref: 'req-7f3a' };

export const MeterEventPayload = Type.Object(
  {
    meter: MeterName,
    subject_agent_id: { ...AgentId, description: 'The agent billed for the usage' },
    quantity: Quantity,
    unit: UnitName,
    occurred_at: { ...Timestamp, description: 'When the usage happened (RFC 3339; at most 5 minutes ahead; its UTC month is the period)' },
    epoch: EpochName,
    ref: Type.Optional(Ref),
  },
  { additionalProperties: false, description: 'The signed payload of a meter event', examples: [payloadExample] },
);
export type MeterEventPayloadJson = Static<typeof MeterEventPayload>;

export const IngestMeterEventBody = Type.Object(
  {
    signer_agent_id: { ...AgentId, description: 'The reporting agent (who signed); an agent-signed request must be that agent (403 `acting_agent_mismatch`)' },
    payload: MeterEventPayload,
    signature: { ...Signature, description: 'Base64 ed25519 by a key of `signer_agent_id` over the canonical JSON of `payload`' },
  },
  { additionalProperties: false, examples: [{ signer_agent_id: REPORTER, payload: payloadExample, signature: SIG }] },
);
export type IngestMeterEventBodyJson = Static<typeof IngestMeterEventBody>;

const eventExample = {
  object_id: MEV,
  type: 'meter_event',
  signer_agent_id: REPORTER,
  payload: payloadExample,
  signature: SIG,
  meter: 'llm.tokens',
  subject_agent_id: SUBJECT,
  quantity: 1200,
  unit: 'token',
  occurred_at: T,
  epoch: '2026-11a',
  ref: 'req-7f3a',
  period: '2026-11',
  unit_price: '0.000125',
  currency: 'CREDIT',
  ingested_at: T,
};

export const MeterEvent = Type.Object(
  {
    object_id: { ...ObjectId, description: '`sha256:<hex>` of canonical JSON of {type: "meter_event", payload, signer_agent_id}' },
    type: StringEnum(['meter_event'] as const),
    signer_agent_id: Type.String({ description: 'The reporting agent' }),
    payload: Type.Unknown({ description: 'The payload as signed' }),
    signature: Type.String({ description: 'Base64 ed25519 over the canonical JSON of `payload`' }),
    meter: Type.String(),
    subject_agent_id: Type.String({ description: 'The agent billed' }),
    quantity: Type.Integer({ minimum: 1 }),
    unit: Type.String(),
    occurred_at: Timestamp,
    epoch: Type.String(),
    ref: Type.Optional(Type.String()),
    period: Type.String({ description: 'UTC month `YYYY-MM` of `occurred_at`' }),
    unit_price: Type.String({ description: 'The epoch’s unit price of the meter (decimal string)' }),
    currency: Type.String(),
    ingested_at: Timestamp,
  },
  { additionalProperties: false, description: 'A signed, priced meter event', examples: [eventExample] },
);
export type MeterEventJson = Static<typeof MeterEvent>;

export const MeterEventParams = Type.Object({ object_id: ObjectId }, { additionalProperties: false });

export const CreateEpochTableBody = Type.Object(
  {
    epoch: EpochName,
    effective_from: { ...Timestamp, description: 'Start (inclusive)' },
    effective_to: { ...Timestamp, description: 'End (exclusive), after `effective_from`' },
    prices: Type.Record(MeterName, UnitPrice, {
      minProperties: 1,
      maxProperties: 200,
      additionalProperties: false,
      description: 'Unit price per meter (1–200 meters); a meter’s epochs never overlap (409 `epoch_overlap`)',
    }),
    currency: Type.Optional({ ...Currency, description: 'Currency of the prices (default `CREDIT`)' }),
  },
  {
    additionalProperties: false,
    examples: [{ epoch: '2026-11a', effective_from: T_FROM, effective_to: T_TO, prices: { 'llm.tokens': '0.000125', 'api.calls': '0.01' }, currency: 'CREDIT' }],
  },
);
export type CreateEpochTableBodyJson = Static<typeof CreateEpochTableBody>;

const tablePayloadExample = { currency: 'CREDIT', effective_from: T_FROM, effective_to: T_TO, epoch: '2026-11a', prices: { 'api.calls': '0.01', 'llm.tokens': '0.000125' } };
const tableExample = {
  object_id: TBL,
  epoch: '2026-11a',
  effective_from: T_FROM,
  effective_to: T_TO,
  prices: { 'api.calls': '0.01', 'llm.tokens': '0.000125' },
  currency: 'CREDIT',
  payload: tablePayloadExample,
  signature: SIG,
  signer_public_key: EXCHANGE_PUB,
  created_at: T,
};

export const MeterEpochTable = Type.Object(
  {
    object_id: { ...ObjectId, description: 'Registry object id of the exchange-signed table' },
    epoch: Type.String(),
    effective_from: Timestamp,
    effective_to: Timestamp,
    prices: Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' }, description: 'Unit price per meter (decimal strings)' }),
    currency: Type.String(),
    payload: Type.Unknown({ description: 'The payload as signed: {epoch, effective_from, effective_to, prices, currency}' }),
    signature: Type.String({ description: 'Base64 ed25519 by the exchange key over the canonical JSON of `payload`' }),
    signer_public_key: Type.String({ description: 'The exchange public key (as `/health` publishes it)' }),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'An immutable, exchange-signed epoch pricing table', examples: [tableExample] },
);
export type MeterEpochTableJson = Static<typeof MeterEpochTable>;

export const EpochTableParams = Type.Object({ object_id: ObjectId }, { additionalProperties: false });
