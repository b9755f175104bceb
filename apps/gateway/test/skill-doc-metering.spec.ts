import { canonicalize, publicKeyFromPrivate, sha256Hex, signCanonical, toBase64, verifyCanonical } from '@exchange/crypto';
import { h, skill, useSkillDocHarness } from './skill-doc-setup';

// The Metering, Billing (operator) and Gateway proxy sections of /skill.md (and the quickstart's
// walk-through): every route listed and served, the signing rule's example bytes and signature
// recomputed with the exchange's own library, and the signing snippet producing a signature
// that library verifies.

useSkillDocHarness();

const SEED = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
const section = () => skill.slice(skill.indexOf('### Metering'), skill.indexOf('## 10. Rate limits'));
const EXAMPLE = { meter: 'llm.tokens', subject_agent_id: 'acme:agent:buyer-1', quantity: 1200, unit: 'token', occurred_at: '2026-11-21T18:00:00.000Z', epoch: '2026-11a', ref: 'req-7f3a' };

describe('GET /skill.md metering, billing and gateway proxy sections', () => {
  it('should document every route of the three areas, and only served ones', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, object> };
    const text = section();
    const ours = Object.keys(doc.paths).filter((p) => /^\/v1\/(meter_events|meter_epoch_tables|billing|gateway)(\/|$)/.test(p));
    expect(ours).toHaveLength(11);
    for (const path of ours) expect({ path, documented: text.includes(path) }).toEqual({ path, documented: true });
    for (const heading of ['### Metering', '### Billing (operator)', '### Gateway proxy']) expect(text).toContain(heading);
    for (const code of ['budget_exceeded', 'billing_period_closed', 'meter_event_in_future', 'projection_stale', 'budget_unavailable', 'epoch_overlap', 'Idempotent-Replayed']) {
      expect(text).toContain(code);
    }
  });

  it('should give the example’s canonical bytes, signature and object id as the exchange computes them', () => {
    const text = section();
    expect(text).toContain(`canonical: ${canonicalize(EXAMPLE)}`);
    expect(text).toContain(`payload:   ${JSON.stringify(EXAMPLE)}`);
    expect(text).toContain(`(0x01…0x20): ${signCanonical(EXAMPLE, SEED)}`);
    expect(text).toContain(`sha256:${sha256Hex(canonicalize({ type: 'meter_event', payload: EXAMPLE, signer_agent_id: 'acme:agent:gateway-1' }))}`);
  });

  it('should give signing code whose ingest body the exchange’s verifier accepts, and rejects once changed', () => {
    const block = /<!-- meter-sign:start -->\s*```js\n([\s\S]*?)```/.exec(skill);
    expect(block).not.toBeNull();
    type Body = { signer_agent_id: string; payload: typeof EXAMPLE; signature: string };
    const signMeterEvent = new Function('require', `${block![1]}\nreturn signMeterEvent;`)(require) as (seed: Buffer, signer: string, p: object) => Body;
    const body = signMeterEvent(SEED, 'acme:agent:gateway-1', { ...EXAMPLE });
    const pub = toBase64(publicKeyFromPrivate(SEED));
    expect(body.signer_agent_id).toBe('acme:agent:gateway-1');
    expect(verifyCanonical(body.payload, body.signature, pub)).toBe(true);
    expect(verifyCanonical({ ...body.payload, quantity: 1201 }, body.signature, pub)).toBe(false);
  });

  it('should walk the quickstart through metering, billing and the proxy', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/quickstart.md' });
    for (const text of ['/v1/meter_epoch_tables', '/v1/meter_events/ingest', '/v1/billing/receipts/emit', '/v1/gateway/proxy/calls', '402 budget_exceeded', '/v1/casefiles/verify']) {
      expect(res.body).toContain(text);
    }
  });
});
