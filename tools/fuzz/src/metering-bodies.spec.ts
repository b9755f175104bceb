import { generateAgentKeys, publicKeyToBase64 } from '@exchange/sdk';
import { verifyCanonical } from '@exchange/crypto';
import fc from 'fast-check';
import { casefileExportBody, emitBody, ingestBody, projectionBody, proxyCallBody } from './metering-bodies';
import type { MeteringContext } from './metering-fixtures';

// The metering, billing and proxy bodies: signed by the signer over the canonical payload and
// priced by the fixtures' epoch, naming the signer's own hold/mandate and run, an attached
// projection for emit; none when setup made nothing to name.

const m: MeteringContext = {
  epoch: 'fz-epoch',
  meters: ['fuzz.calls', 'fuzz.tokens'],
  periods: { previous: '2026-10', current: '2026-11' },
  billable: [{ agentId: 'fz:agent:seller', period: '2026-10' }],
  actorPools: new Map(),
};
const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { numRuns: 30, seed: 7 });

describe('ingestBody', () => {
  it('is signed by the signer over the canonical payload, an integer quantity, the fixtures’ epoch and meters', () => {
    const keys = generateAgentKeys();
    const now = Date.parse('2026-11-25T10:00:00.000Z');
    for (const body of sample(ingestBody(m, 'fz:agent:buyer', keys.privateKey, ['fz:agent:seller'], now)) as Array<{ signer_agent_id: string; payload: Record<string, unknown>; signature: string }>) {
      expect(body.signer_agent_id).toBe('fz:agent:buyer');
      expect(verifyCanonical(body.payload, body.signature, publicKeyToBase64(keys.publicKey))).toBe(true);
      expect(body.payload.epoch).toBe('fz-epoch');
      expect(m.meters).toContain(body.payload.meter);
      expect(Number.isInteger(body.payload.quantity)).toBe(true);
      expect(Date.parse(body.payload.occurred_at as string)).toBeLessThanOrEqual(now);
    }
  });
});

describe('billing bodies', () => {
  it('projects a real agent over an open month, and emits only what was attached', () => {
    for (const b of sample(projectionBody(m, ['fz:agent:a'])!)) expect(['2026-10', '2026-11']).toContain((b as { period: string }).period);
    expect(projectionBody(m, [])).toBeNull();
    expect(sample(emitBody(m)!)).toContainEqual({ agent_id: 'fz:agent:seller', period: '2026-10' });
    expect(emitBody({ ...m, billable: [] })).toBeNull();
  });
});

describe('proxy bodies', () => {
  it('spends the signer’s own hold or mandate, exactly one, on its own run', () => {
    const own = { hold: ['hld_1'], mandate: ['mdt_1'], proxyRun: ['run-1'] };
    const bodies = sample(proxyCallBody(own, 'fz:agent:buyer')!) as Array<Record<string, unknown>>;
    for (const b of bodies) {
      expect(b.agent_id).toBe('fz:agent:buyer');
      expect(b.run_id).toBe('run-1');
      expect([b.hold_id, b.mandate_id].filter((x) => x !== undefined)).toHaveLength(1);
    }
    expect(bodies.some((b) => b.hold_id === 'hld_1')).toBe(true);
    expect(bodies.some((b) => b.mandate_id === 'mdt_1')).toBe(true);
    expect(proxyCallBody({}, 'fz:agent:buyer')).toBeNull();
  });

  it('exports the signer’s own run, or nothing without one', () => {
    expect(sample(casefileExportBody({ proxyRun: ['run-1'] }, 'fz:agent:buyer')!)[0]).toEqual({ agent_id: 'fz:agent:buyer', run_id: 'run-1' });
    expect(casefileExportBody({}, 'fz:agent:buyer')).toBeNull();
  });
});
