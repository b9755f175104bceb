import { generateAgentKeys, signMandate } from '@exchange/sdk';
import { CaseStream } from './case-stream';
import type { CaseContext } from './cases';
import { SANDBOX_MERCHANT, SANDBOX_SKUS } from './commerce-fixtures';
import { violations } from './conformance';
import { operationsOf } from './openapi';
import type { JsonSchema } from './openapi';
import { AGENT_ID } from './test-schemas';

const both = [{ operatorToken: [] }, { agentId: [], agentTimestamp: [], agentNonce: [], agentSignature: [] }];
const MANDATE_ID = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' } satisfies JsonSchema;
const AUTONOMY: JsonSchema = {
  type: 'object',
  required: ['mode', 'approval_for_new_merchants'],
  properties: {
    mode: { type: 'string', enum: ['autonomous', 'step_up', 'manual'] },
    approval_for_new_merchants: { type: 'boolean' },
    daily_limit: { type: 'string', minLength: 1, maxLength: 40, examples: ['12.5'] },
  },
  additionalProperties: false,
};
const json = (schema: JsonSchema, example?: unknown) => ({ required: true, content: { 'application/json': { schema, ...(example ? { example } : {}) } } });
const doc = {
  paths: {
    '/v1/mandates/{mandate_id}/autonomy': {
      put: { parameters: [{ in: 'path', name: 'mandate_id', schema: MANDATE_ID }], requestBody: json(AUTONOMY, { mode: 'manual', approval_for_new_merchants: true }), security: both },
    },
    '/v1/mandates': { post: { requestBody: json({ type: 'object', properties: { signer_agent_id: AGENT_ID } }), security: both } },
    '/v1/commerce/ucp/checkout/create': { post: { requestBody: json({ type: 'object', properties: { mandate_id: MANDATE_ID } }), security: both } },
  },
};

const a = 'fuzz:agent:a';
const b = 'fuzz:agent:b';
const keys = new Map([
  [a, generateAgentKeys().privateKey],
  [b, generateAgentKeys().privateKey],
]);
const now = Date.parse('2030-01-01T00:00:00Z');
const ctx: CaseContext = {
  pools: { agent: [a, b], mandate: ['mdt_a', 'mdt_b'], merchantDomain: [SANDBOX_MERCHANT] },
  signerIds: [a, b],
  archive: null,
  now,
  signingKeys: keys,
  commerce: { mandateFor: new Map([[a, 'mdt_a'], [b, 'mdt_b']]), actorPools: new Map(), merchants: [SANDBOX_MERCHANT], skus: SANDBOX_SKUS },
  // b may act on mdt_b only (a has nothing of its own).
  actorPools: new Map([[b, { mandate: ['mdt_b'] }]]),
};
const cases = (() => {
  const stream = new CaseStream(operationsOf(doc), ctx, 11);
  return Array.from({ length: 1500 }, () => stream.next().case);
})();
const valid = (path: string) => cases.filter((c) => c.op.path === path && c.focus === 'valid');
const bodyOf = (c: { body: Buffer | null }) => JSON.parse(c.body!.toString()) as Record<string, unknown>;

describe('commerce and mandate requests', () => {
  it('sends PUT with JSON bodies that conform, to real mandates', () => {
    const puts = valid('/v1/mandates/{mandate_id}/autonomy');
    expect(puts.length).toBeGreaterThan(20);
    for (const c of puts) {
      expect(c.method).toBe('PUT');
      expect(c.contentType).toBe('application/json');
      expect(violations(AUTONOMY, bodyOf(c))).toEqual([]);
    }
    expect(puts.filter((c) => /^\/v1\/mandates\/mdt_[ab]\/autonomy$/.test(c.target)).length).toBeGreaterThan(puts.length / 3);
    expect(cases.some((c) => c.op.method === 'PUT' && c.focus === 'body' && /^body \/mode ← /.test(c.label))).toBe(true);
  });

  it('names the acting agent’s own mandate in the path more often than another one', () => {
    const ofB = valid('/v1/mandates/{mandate_id}/autonomy').filter((c) => ctx.signerIds[c.signer] === b);
    expect(ofB.length).toBeGreaterThan(10);
    expect(ofB.filter((c) => c.target.includes('/mdt_b/')).length).toBeGreaterThan(ofB.filter((c) => c.target.includes('/mdt_a/')).length * 2);
  });

  it('has the operator act as the signer on routes only an agent may call', () => {
    const put = cases.filter((c) => c.op.method === 'PUT');
    expect(put.filter((c) => c.actAs).length).toBeGreaterThan(put.length / 2);
  });

  it('signs mandates as the acting agent, over exactly the terms sent', () => {
    const signed = valid('/v1/mandates')
      .map((c) => ({ signerId: ctx.signerIds[c.signer], body: bodyOf(c) }))
      .filter((m) => typeof m.body.signature === 'string' && m.body.scope !== undefined);
    expect(signed.length).toBeGreaterThan(10);
    for (const { signerId, body } of signed) {
      expect(body.signer_agent_id).toBe(signerId);
      const limits = body.limits as { per_transaction: string; total: string; currency: string };
      const terms = {
        signerAgentId: signerId,
        agentId: body.agent_id as string,
        scope: body.scope as { merchants: string[]; categories: string[]; skus: string[] },
        limits: { perTransaction: limits.per_transaction, total: limits.total, currency: limits.currency },
        expiresAt: body.expires_at as string,
      };
      expect(body.signature).toBe(signMandate(terms, keys.get(signerId)!));
      expect(Date.parse(body.expires_at as string)).toBeGreaterThan(now);
    }
  });

  it('creates checkouts under the acting agent’s own mandate, for items the merchant sells', () => {
    const creates = valid('/v1/commerce/ucp/checkout/create')
      .map((c) => ({ signerId: ctx.signerIds[c.signer], body: bodyOf(c) }))
      .filter((m) => Array.isArray(m.body.line_items));
    expect(creates.length).toBeGreaterThan(10);
    for (const { signerId, body } of creates) {
      expect(body.buyer_agent_id).toBe(signerId);
      expect(body.mandate_id).toBe(signerId === a ? 'mdt_a' : 'mdt_b');
      expect(body.merchant_domain).toBe(SANDBOX_MERCHANT);
      for (const line of body.line_items as Array<{ item: { id: string } }>) expect(SANDBOX_SKUS).toContain(line.item.id);
    }
  });
});
