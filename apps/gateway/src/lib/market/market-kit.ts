import { IdempotencyKey } from '../../areas/wallets/wallets.schemas';
import { Cursor, Limit, NextCursor } from '../../schemas/common';
import { type TSchema, Type } from 'typebox';

// Building blocks of the market areas' schemas (examples, ids, text fields, pages). Not a schema
// module of /openapi.json: nothing here is a resource of its own.

export const T = '2026-11-21T18:00:00.000Z';
export const T_DEADLINE = '2026-11-28T18:00:00.000Z';
export const BUYER = 'acme:agent:buyer-1';
export const SELLER = 'acme:agent:seller-1';
export const VERIFIER = 'acme:agent:verifier-1';
export const CTR = 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const LST = 'lst_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const OFR = 'ofr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const RES = 'res_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const DSP = 'dsp_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const VRF = 'vrf_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const RPT = 'rpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const HLD = 'hld_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const RCPT = 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const SHA = 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
export const SIG = 'q3b1xB2p6oX0rVd8mW4m3z5cYVZ0k8w5Jm9T2Kc1cYb3oQm0d3n6eWfV3u2Hc1hY3l6r8wqQ0n2Xb8Qw3r5aAw==';

export const MoneyOut = Type.Object(
  { amount: Type.String({ description: 'Decimal string (at most 6 fraction digits)' }), currency: Type.String() },
  { additionalProperties: false },
);

export const Title = Type.String({ minLength: 1, maxLength: 200, examples: ['Summarise 40 support tickets'] });
export const Description = Type.String({ maxLength: 20_000, description: 'Free text (default "")' });
export const Tags = Type.Array(
  Type.String({ minLength: 1, maxLength: 64, description: '`^[a-z0-9][a-z0-9._-]{0,63}$` (else 400 `validation_failed` from the market)' }),
  { maxItems: 20, description: '0-20 tags, deduplicated in order', examples: [['nlp', 'summaries']] },
);
export const Turnaround = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'ISO 8601 duration such as `PT24H` or `P2D` (else 400 `invalid_turnaround`)',
  examples: ['PT24H'],
});
export const LongText = (description: string, min = 1) => Type.String({ minLength: min, maxLength: 20_000, description });

export const Key = Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` });

const ResourceId = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description, examples: [example] });

export const ContractId = ResourceId('Contract id (`ctr_…`)', CTR);
export const CatalogId = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-z0-9][a-z0-9._-]{0,127}$', description, examples: [example] });
export const ListingId = ResourceId('Listing id (`lst_…`)', LST);
export const OfferId = ResourceId('Offer id (`ofr_…`)', OFR);
export const ResultId = ResourceId('Result id (`res_…`)', RES);
export const DisputeId = ResourceId('Dispute id (`dsp_…`)', DSP);

export const Page = <S extends TSchema>(item: S, description: string, example: unknown) =>
  Type.Object({ data: Type.Array(item), next_cursor: NextCursor }, { additionalProperties: false, description, examples: [{ data: [example], next_cursor: null }] });


export const PageFields = { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) };

export const partyNote = (field: string) =>
  `Defaults to the acting agent (the signing agent, or X-Agent-Id with the operator token); another agent than the acting one ` +
  `is 403 \`acting_agent_mismatch\`; neither → 400 \`validation_failed\` naming \`${field}\`.`;
