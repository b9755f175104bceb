import { verifyDocket } from '@exchange/casefile';
import { canonicalize, generateKeyPair, toBase64 } from '@exchange/crypto';
import { proxyCallContent, proxyRunDocket } from './proxy-casefile';
import type { ProxyCall } from './proxy-call';

const call = (n: number): ProxyCall => ({
  callId: `pxc_${n}`,
  agentId: 'acme:agent:a',
  runId: 'run_1',
  upstream: 'api.example.com',
  operation: 'POST /v1/chat',
  cost: 12_500n,
  currency: 'CREDIT',
  requestSha256: 'a'.repeat(64),
  responseSha256: 'b'.repeat(64),
  status: 200,
  latencyMs: 120 + n,
  budgetKind: 'hold',
  budgetRef: 'hld_1',
  idempotencyKey: null,
  recordedAt: new Date(Date.UTC(2026, 10, 25, 12, 0, n)),
});

describe('proxy run casefile', () => {
  it('should show a call in its REST form', () => {
    expect(proxyCallContent(call(1))).toEqual({
      call_id: 'pxc_1',
      agent_id: 'acme:agent:a',
      run_id: 'run_1',
      upstream: 'api.example.com',
      operation: 'POST /v1/chat',
      cost: '0.0125',
      currency: 'CREDIT',
      request_sha256: 'a'.repeat(64),
      response_sha256: 'b'.repeat(64),
      status: 200,
      latency_ms: 121,
      budget_kind: 'hold',
      budget_ref: 'hld_1',
      idempotency_key: null,
      recorded_at: '2026-11-25T12:00:01.000Z',
    });
  });

  it('should sign a docket that verifies with the exchange key, and fail at an altered entry', () => {
    const keys = generateKeyPair();
    const docket = proxyRunDocket({ agentId: 'acme:agent:a', runId: 'run_1' }, [call(1), call(2)], new Date('2026-11-25T13:00:00.000Z'), keys.privateKey);
    expect(docket.subject).toEqual({ agent_id: 'acme:agent:a', run_id: 'run_1' });
    expect(docket.entries.map((e) => [e.kind, e.ref])).toEqual([
      ['proxy_call', 'pxc_1'],
      ['proxy_call', 'pxc_2'],
    ]);
    const trusted = toBase64(keys.publicKey);
    expect(verifyDocket(JSON.parse(canonicalize(docket)), { trustedPublicKey: trusted }).valid).toBe(true);

    const tampered = JSON.parse(canonicalize(docket));
    tampered.entries[1].content.cost = '0';
    const result = verifyDocket(tampered, { trustedPublicKey: trusted });
    expect(result.valid).toBe(false);
    expect(result.checks.filter((c) => !c.ok).map((c) => c.ref)).toContain('pxc_2');
    expect(result.checks.find((c) => c.ref === 'pxc_1')?.ok).toBe(true);
  });
});
