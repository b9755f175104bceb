// Schemas shaped like the gateway's (copied from /openapi.json) for the unit tests.
import type { JsonSchema } from './openapi';

export const AGENT_ID = { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,62}:agent:[a-z0-9][a-z0-9._-]{0,62}$', maxLength: 133 } satisfies JsonSchema;

export const FAUCET: JsonSchema = {
  type: 'object',
  required: ['amount', 'category'],
  properties: {
    amount: { type: 'string', minLength: 1, maxLength: 40, examples: ['12.5'] },
    currency: { type: 'string', minLength: 1, maxLength: 16, examples: ['CREDIT'] },
    category: { type: 'string', minLength: 1, maxLength: 64, examples: ['testing'] },
    idempotency_key: { type: 'string', examples: ['faucet-001'] },
  },
  additionalProperties: false,
};

export const CONTRACT: JsonSchema = {
  type: 'object',
  required: ['title', 'budget', 'deadline'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    budget: {
      type: 'object',
      required: ['amount', 'currency'],
      properties: { amount: { type: 'string', minLength: 1, maxLength: 40 }, currency: { type: 'string', enum: ['CREDIT'] } },
      additionalProperties: false,
    },
    deadline: { type: 'string', format: 'date-time' },
    buyer_id: AGENT_ID,
    tags: { type: 'array', items: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' }, maxItems: 10 },
    seller_share_bps: { type: 'integer', minimum: 0, maximum: 10000 },
    score: { type: 'number', minimum: 0, maximum: 1 },
    buyer_private: { type: 'boolean' },
    artifact_refs: { type: 'array', items: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' }, maxItems: 20 },
    payload: { description: 'free-form' },
    details: { type: 'object', additionalProperties: { type: 'string', maxLength: 1024 }, maxProperties: 20 },
  },
  additionalProperties: false,
};
