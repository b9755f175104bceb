// Metering, billing and proxy bodies the schema alone seldom makes acceptable: a meter event
// signed by the acting agent over its canonical payload and priced by the fixtures' epoch; a
// billing request for a real agent and an open month; an emit of an attached projection; a proxy
// call against the signer's own hold or mandate; a casefile export of the signer's own run.
import { signMeterEvent } from '@exchange/sdk';
import fc from 'fast-check';
import type { Pools } from './id-pools';
import { SHA_HEX, type MeteringContext } from './metering-fixtures';

const strings = (values: unknown[] | undefined) => (values ?? []).filter((v): v is string => typeof v === 'string');

/** POST /v1/meter_events/ingest signed by `signerId` about itself or another agent, now or a moment ago. */
export function ingestBody(m: MeteringContext, signerId: string, key: Uint8Array, agents: string[], now: number): fc.Arbitrary<unknown> {
  return fc
    .record({
      meter: fc.constantFrom(...m.meters),
      subject: fc.constantFrom(signerId, ...agents),
      quantity: fc.integer({ min: 1, max: 1_000_000_000_000 }),
      ago: fc.integer({ min: 0, max: 3_600_000 }),
      ref: fc.option(fc.stringMatching(/^[\x20-\x7E]{1,40}$/), { nil: undefined }),
    })
    .map((v) => {
      const payload = { meter: v.meter, subject_agent_id: v.subject, quantity: v.quantity, unit: 'unit', occurred_at: new Date(now - v.ago).toISOString(), epoch: m.epoch, ...(v.ref ? { ref: v.ref } : {}) };
      return { signer_agent_id: signerId, ...signMeterEvent(payload, key) };
    });
}

/** POST /v1/billing/projections for a real agent and the previous or current month. */
export function projectionBody(m: MeteringContext, agents: string[]): fc.Arbitrary<unknown> | null {
  if (agents.length === 0) return null;
  return fc.record({ agent_id: fc.constantFrom(...agents), period: fc.constantFrom(m.periods.previous, m.periods.current) });
}

/** POST /v1/billing/receipts/emit of an attached projection (201 once, then 200), or null. */
export function emitBody(m: MeteringContext): fc.Arbitrary<unknown> | null {
  if (m.billable.length === 0) return null;
  return fc.constantFrom(...m.billable).map((b) => ({ agent_id: b.agentId, period: b.period }));
}

/** POST /v1/gateway/proxy/calls by the signer against its own hold (or mandate), a small cost. */
export function proxyCallBody(own: Pools, signerId: string): fc.Arbitrary<unknown> | null {
  const holds = strings(own.hold);
  const mandates = strings(own.mandate);
  const runs = strings(own.proxyRun);
  if (holds.length + mandates.length === 0) return null;
  const budget = fc.oneof(
    ...(holds.length > 0 ? [fc.constantFrom(...holds).map((id) => ({ hold_id: id }))] : []),
    ...(mandates.length > 0 ? [fc.constantFrom(...mandates).map((id) => ({ mandate_id: id }))] : []),
  );
  return fc
    .record({
      budget,
      run: runs.length > 0 ? fc.constantFrom(...runs) : fc.constant('fuzz-run'),
      cost: fc.constantFrom('0.01', '0.001', '0.5'),
      status: fc.constantFrom(200, 201, 429, 500, 502),
      latency: fc.integer({ min: 0, max: 60_000 }),
      key: fc.option(fc.uuid(), { nil: undefined }),
    })
    .map((v) => ({
      agent_id: signerId,
      run_id: v.run,
      upstream: 'api.fuzz.example',
      operation: 'POST /v1/fuzz',
      cost: v.cost,
      request_sha256: SHA_HEX,
      response_sha256: SHA_HEX,
      status: v.status,
      latency_ms: v.latency,
      ...v.budget,
      ...(v.key ? { idempotency_key: `fuzz-${v.key}` } : {}),
    }));
}

/** POST /v1/gateway/casefiles/export of the signer's own run, or null when it recorded none. */
export function casefileExportBody(own: Pools, signerId: string): fc.Arbitrary<unknown> | null {
  const runs = strings(own.proxyRun);
  if (runs.length === 0) return null;
  return fc.constantFrom(...runs).map((run) => ({ agent_id: signerId, run_id: run }));
}
