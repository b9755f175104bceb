import { DomainError } from '@exchange/platform';
import { parseCost, parseRecordProxyCall, requireRun, type RecordProxyCallCommand } from './proxy-call';

const HEX = 'a'.repeat(64);
const valid: RecordProxyCallCommand = {
  agentId: 'acme:agent:a',
  runId: 'run_1',
  upstream: 'api.example.com',
  operation: 'POST /v1/chat',
  cost: '0.0125',
  requestSha256: HEX,
  responseSha256: 'b'.repeat(64),
  status: 200,
  latencyMs: 120,
  holdId: 'hld_1',
};

/** The field a validation failure names (fails the test when the command is accepted). */
function failedField(cmd: Partial<RecordProxyCallCommand>): unknown {
  try {
    parseRecordProxyCall({ ...valid, ...cmd });
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('validation_failed');
    return (err as DomainError).details?.['field'];
  }
  throw new Error('expected a validation failure');
}

describe('parseRecordProxyCall', () => {
  it('should accept a valid call, with cost in micro-units, no currency and a hold budget', () => {
    const v = parseRecordProxyCall(valid);
    expect(v).toMatchObject({ cost: 12_500n, currency: null, budget: { kind: 'hold', ref: 'hld_1' }, idempotencyKey: null });
    expect(v.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should name the first invalid field', () => {
    expect(failedField({ agentId: 'Acme:agent:a' })).toBe('agent_id');
    expect(failedField({ agentId: 'acme:bot:a' })).toBe('agent_id');
    expect(failedField({ runId: '' })).toBe('run_id');
    expect(failedField({ runId: '-run' })).toBe('run_id');
    expect(failedField({ runId: 'r'.repeat(129) })).toBe('run_id');
    expect(failedField({ upstream: 'api example' })).toBe('upstream');
    expect(failedField({ upstream: 'u'.repeat(256) })).toBe('upstream');
    expect(failedField({ operation: 'GET\n/' })).toBe('operation');
    expect(failedField({ cost: '-1' })).toBe('cost');
    expect(failedField({ cost: '0.0000001' })).toBe('cost');
    expect(failedField({ cost: '1e3' })).toBe('cost');
    expect(failedField({ requestSha256: HEX.toUpperCase() })).toBe('request_sha256');
    expect(failedField({ responseSha256: 'b'.repeat(63) })).toBe('response_sha256');
    expect(failedField({ status: 99 })).toBe('status');
    expect(failedField({ status: 600 })).toBe('status');
    expect(failedField({ latencyMs: -1 })).toBe('latency_ms');
    expect(failedField({ latencyMs: 3_600_001 })).toBe('latency_ms');
    expect(failedField({ holdId: undefined })).toBe('hold_id');
    expect(failedField({ mandateId: 'mdt_1' })).toBe('hold_id');
    expect(failedField({ holdId: '' })).toBe('hold_id');
    expect(failedField({ holdId: undefined, mandateId: '' })).toBe('mandate_id');
    expect(failedField({ idempotencyKey: '' })).toBe('idempotency_key');
    expect(failedField({ idempotencyKey: 'k'.repeat(256) })).toBe('idempotency_key');
  });

  it('should refuse an unsupported currency with its own code', () => {
    expect(() => parseRecordProxyCall({ ...valid, currency: 'credits' })).toThrow(expect.objectContaining({ code: 'unsupported_currency' }));
  });

  it('should give the same fingerprint whatever the key and the spelling of the cost, and another for another call', () => {
    const a = parseRecordProxyCall({ ...valid, idempotencyKey: 'k1' });
    const b = parseRecordProxyCall({ ...valid, cost: '0.012500', idempotencyKey: 'k2' });
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(parseRecordProxyCall({ ...valid, status: 500 }).fingerprint).not.toBe(a.fingerprint);
    expect(parseRecordProxyCall({ ...valid, holdId: undefined, mandateId: 'hld_1' }).fingerprint).not.toBe(a.fingerprint);
    expect(parseRecordProxyCall({ ...valid, currency: 'CREDIT' }).fingerprint).not.toBe(a.fingerprint);
  });

  it('should accept a free call and a mandate budget', () => {
    expect(parseCost('0')).toBe(0n);
    expect(parseRecordProxyCall({ ...valid, holdId: undefined, mandateId: 'mdt_1' }).budget).toEqual({ kind: 'mandate', ref: 'mdt_1' });
  });

  it('should check a run the same way', () => {
    expect(() => requireRun({ agentId: 'acme:agent:a', runId: 'run:1.2_x-y' })).not.toThrow();
    expect(() => requireRun({ agentId: 'acme:agent:a', runId: '' })).toThrow(expect.objectContaining({ details: { field: 'run_id' } }));
    expect(() => requireRun({ agentId: '', runId: 'r' })).toThrow(expect.objectContaining({ details: { field: 'agent_id' } }));
  });
});
