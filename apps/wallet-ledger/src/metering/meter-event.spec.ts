import { canonicalize, toBase64 } from '@exchange/crypto';
import { DomainError } from '@exchange/platform';
import { canView, parseSignedMeterEvent, parseUtcTimestamp } from './meter-event';

const SIG = toBase64(new Uint8Array(64).fill(7));
const base = {
  meter: 'llm.tokens:in',
  subject_agent_id: 'acme:agent:bob',
  quantity: 1200,
  unit: 'token',
  occurred_at: '2026-11-01T10:00:00.000Z',
  epoch: 'E-2026.11',
};

function refusal(fn: () => unknown): { code: string; field?: unknown } {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, field: err.details?.['field'] };
    throw err;
  }
  throw new Error('expected a refusal');
}

const parse = (payload: unknown, over: Partial<{ signerAgentId: string; signature: string; payloadJson: string }> = {}) =>
  parseSignedMeterEvent({ signerAgentId: 'acme:agent:meter-1', payloadJson: JSON.stringify(payload), signature: SIG, ...over });

describe('parseSignedMeterEvent', () => {
  it('returns the fields and the canonical payload', () => {
    const r = parse({ ...base, ref: 'call #1' });
    expect(r.payloadJson).toBe(canonicalize({ ...base, ref: 'call #1' }));
    expect(r.fields).toEqual({
      meter: 'llm.tokens:in',
      subjectAgentId: 'acme:agent:bob',
      quantity: 1200n,
      unit: 'token',
      occurredAt: new Date('2026-11-01T10:00:00.000Z'),
      epoch: 'E-2026.11',
      ref: 'call #1',
    });
  });

  it('canonicalises whatever key order and spacing the payload came in', () => {
    const r = parse(null, { payloadJson: ' { "epoch":"E-2026.11", "unit":"token","quantity":1200,"occurred_at":"2026-11-01T10:00:00.000Z","subject_agent_id":"acme:agent:bob","meter":"llm.tokens:in" } ' });
    expect(r.payloadJson).toBe(canonicalize(base));
    expect(r.fields.ref).toBeNull();
  });

  it.each([
    ['meter', { ...base, meter: 'Upper' }, 'payload.meter'],
    ['subject', { ...base, subject_agent_id: 'bob' }, 'payload.subject_agent_id'],
    ['quantity 0', { ...base, quantity: 0 }, 'payload.quantity'],
    ['quantity fraction', { ...base, quantity: 1.5 }, 'payload.quantity'],
    ['quantity string', { ...base, quantity: '5' }, 'payload.quantity'],
    ['quantity too large', { ...base, quantity: 1e12 + 1 }, 'payload.quantity'],
    ['unit', { ...base, unit: 'a b' }, 'payload.unit'],
    ['occurred_at offset', { ...base, occurred_at: '2026-11-01T10:00:00+00:00' }, 'payload.occurred_at'],
    ['occurred_at date only', { ...base, occurred_at: '2026-11-01' }, 'payload.occurred_at'],
    ['occurred_at impossible', { ...base, occurred_at: '2026-02-30T00:00:00Z' }, 'payload.occurred_at'],
    ['epoch', { ...base, epoch: '-x' }, 'payload.epoch'],
    ['ref empty', { ...base, ref: '' }, 'payload.ref'],
    ['ref too long', { ...base, ref: 'x'.repeat(129) }, 'payload.ref'],
    ['ref non-ASCII', { ...base, ref: 'é' }, 'payload.ref'],
    ['unknown field', { ...base, price: 1 }, 'payload.price'],
    ['missing field', { ...base, unit: undefined }, 'payload.unit'],
  ])('refuses a bad %s naming the field', (_what, payload, field) => {
    expect(refusal(() => parse(payload))).toEqual({ code: 'validation_failed', field });
  });

  it('refuses a payload that is not a JSON object, a bad signer and a bad signature', () => {
    expect(refusal(() => parse(null, { payloadJson: '[1]' }))).toEqual({ code: 'validation_failed', field: 'payload_json' });
    expect(refusal(() => parse(null, { payloadJson: '{' }))).toEqual({ code: 'validation_failed', field: 'payload_json' });
    expect(refusal(() => parse(base, { signerAgentId: 'nobody' }))).toEqual({ code: 'validation_failed', field: 'signer_agent_id' });
    expect(refusal(() => parse(base, { signature: toBase64(new Uint8Array(63)) }))).toEqual({ code: 'validation_failed', field: 'signature' });
    expect(refusal(() => parse(base, { signature: 'not base64!' }))).toEqual({ code: 'validation_failed', field: 'signature' });
  });
});

describe('parseUtcTimestamp', () => {
  it('normalises to milliseconds', () => {
    expect(parseUtcTimestamp('2026-11-01T00:00:00Z', 'f').toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(parseUtcTimestamp('2026-11-01T00:00:00.1234567Z', 'f').toISOString()).toBe('2026-11-01T00:00:00.123Z');
  });
  it('refuses hour 24', () => {
    expect(refusal(() => parseUtcTimestamp('2026-11-01T24:00:00Z', 'f')).code).toBe('validation_failed');
  });
});

describe('canView', () => {
  const e = { signerAgentId: 'a:agent:s', subjectAgentId: 'a:agent:b' };
  it('lets the signer, the subject and the operator read, nobody else', () => {
    expect([canView(e, 'a:agent:s'), canView(e, 'a:agent:b'), canView(e, null), canView(e, 'a:agent:x')]).toEqual([true, true, true, false]);
  });
});
