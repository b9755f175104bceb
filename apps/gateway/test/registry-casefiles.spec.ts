import { errors } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';
import { gzipSync } from 'node:zlib';
import { FAKE_MAX_BYTES } from './fake-registry';
import { expectProblem, operator, startHarness } from './harness';
import { anonymous, h, useRegistryHarness } from './registry-setup';

// Casefile verification (/v1/casefiles/verify, /ui/casefile/verify with their shared anonymous
// budget) and the casefile page through app.inject(), as registry-objects.spec.ts.

useRegistryHarness();

describe('POST /v1/casefiles/verify', () => {
  it('should verify a docket or an archive and answer the verdict (public)', async () => {
    const res = await anonymous('POST', '/v1/casefiles/verify', { docket: { docket_id: 'dkt_1', entries: [] }, exchange_public_key: 'a2V5' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      valid: true,
      docket_id: 'dkt_fake',
      checks: [
        { ref: 'docket', ok: true },
        { ref: 'signature', ok: true },
        { ref: `sha256:${'ab'.repeat(32)}`, ok: true },
      ],
    });
    expect(h.registry.lastCall('verifyCasefile').request).toEqual({ input: { $case: 'docketJson', value: '{"docket_id":"dkt_1","entries":[]}' }, exchangePublicKey: 'a2V5' });
    const tampered = await anonymous('POST', '/v1/casefiles/verify', { archive_base64: gzipSync('tampered').toString('base64') });
    expect(tampered.json()).toMatchObject({ valid: false, checks: expect.arrayContaining([{ ref: `sha256:${'ab'.repeat(32)}`, ok: false, reason: 'sha256 mismatch' }]) });
  });

  it('should answer 400 casefile_unreadable for an unreadable archive and 400 for both or neither input', async () => {
    expectProblem(await anonymous('POST', '/v1/casefiles/verify', { archive_base64: Buffer.from('not gzip').toString('base64') }), 400, 'casefile_unreadable');
    expectProblem(await anonymous('POST', '/v1/casefiles/verify', {}), 400, 'validation_failed');
    expectProblem(await anonymous('POST', '/v1/casefiles/verify', { docket: {}, archive_base64: 'AA==' }), 400, 'validation_failed');
  });
});

describe('POST /ui/casefile/verify', () => {
  it('should verify a raw .tar.gz body without credentials (application/gzip or octet-stream)', async () => {
    const ok = await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: gzipSync('fine') });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ valid: true, docket_id: 'dkt_fake' });
    expect(h.registry.lastCall<registryV1.VerifyCasefileRequest>('verifyCasefile').request.input).toEqual({ $case: 'archive', value: gzipSync('fine') });
    const bad = await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/octet-stream' }, payload: gzipSync('tampered') });
    expect(bad.json()).toMatchObject({ valid: false });
  });

  it('should answer 400 casefile_unreadable for garbage or an empty body, 415 for JSON-less types, 413 over 25 MiB', async () => {
    expectProblem(await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: Buffer.from('nope') }), 400, 'casefile_unreadable');
    expectProblem(await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: Buffer.alloc(0) }), 400, 'casefile_unreadable');
    expectProblem(await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'text/plain' }, payload: 'x' }), 415, 'unsupported_media_type');
    expectProblem(
      await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: Buffer.alloc(FAKE_MAX_BYTES + 1) }),
      413,
      'payload_too_large',
    );
  });
});

describe('POST /ui/casefile/verify rate limit', () => {
  it('should count the public casefile routes against the per-IP anonymous limit (429 rate_limited)', async () => {
    const limited = await startHarness({ env: { RATE_LIMIT_ANONYMOUS: '2' } });
    try {
      const send = () => limited.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: gzipSync('fine') });
      expect((await send()).statusCode).toBe(200);
      expect((await limited.app.inject({ method: 'GET', url: '/ui/casefile' })).statusCode).toBe(200);
      const third = await send();
      expectProblem(third, 429, 'rate_limited');
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });

  it('should give anonymous verification its own per-IP budget across both verify routes, before reading the body (issue 12 finding 8)', async () => {
    const limited = await startHarness({ env: { RATE_LIMIT_CASEFILE_VERIFY: '3' } });
    try {
      const ui = (ip: string) =>
        limited.app.inject({ method: 'POST', url: '/ui/casefile/verify', remoteAddress: ip, headers: { 'content-type': 'application/gzip' }, payload: gzipSync('fine') });
      const json = (ip: string, headers: Record<string, string> = {}) =>
        limited.app.inject({ method: 'POST', url: '/v1/casefiles/verify', remoteAddress: ip, headers, payload: { archive_base64: gzipSync('fine').toString('base64') } });
      const statuses = [(await ui('10.0.0.1')).statusCode, (await json('10.0.0.1')).statusCode, (await ui('10.0.0.1')).statusCode];
      expect(statuses).toEqual([200, 200, 200]);
      const calls = limited.registry.calls.filter((c) => c.method === 'verifyCasefile').length;
      for (const refused of [await json('10.0.0.1'), await ui('10.0.0.1')]) {
        const body = expectProblem(refused, 429, 'rate_limited');
        expect(body.detail).toMatch(/anonymous casefile verification/);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(limited.registry.calls.filter((c) => c.method === 'verifyCasefile').length).toBe(calls);
      // Another IP, and an authenticated caller from the same IP, are not in that budget.
      expect((await ui('10.0.0.2')).statusCode).toBe(200);
      expect((await json('10.0.0.1', operator())).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('should answer missing, empty or shapeless bodies on the casefile routes with a 4xx problem, never 5xx (issue 12 finding 6)', async () => {
    const bodies: Array<[string, Record<string, string>, string | undefined]> = [
      ['none', {}, undefined],
      ['empty content type', { 'content-type': '' }, '{}'],
      ['empty JSON', { 'content-type': 'application/json' }, ''],
      ['JSON null', { 'content-type': 'application/json' }, 'null'],
      ['JSON array', { 'content-type': 'application/json' }, '[]'],
      ['empty gzip', { 'content-type': 'application/gzip' }, ''],
    ];
    const wrong: string[] = [];
    for (const url of ['/v1/casefiles/verify', '/v1/casefiles/export', '/v1/receipts/export', '/ui/casefile/verify']) {
      for (const [name, headers, payload] of bodies) {
        const res = await h.app.inject({ method: 'POST', url, headers: { ...operator(), ...headers }, ...(payload === undefined ? {} : { payload }) });
        const problem = String(res.headers['content-type']).startsWith('application/problem+json');
        if (res.statusCode < 400 || res.statusCode >= 500 || !problem) wrong.push(`${url} ${name}: ${res.statusCode} ${res.headers['content-type']}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should answer 413 payload_too_large when the registry stops reading an archive at a limit', async () => {
    h.registry.failNext('verifyCasefile', errors.resourceExhausted('payload_too_large', 'archive expands beyond 134217728 bytes'));
    const res = await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: gzipSync('bomb') });
    expect(expectProblem(res, 413, 'payload_too_large').detail).toBe('archive expands beyond 134217728 bytes');
    h.registry.failNext('verifyCasefile', errors.resourceExhausted('payload_too_large', 'archive has more than 10000 files'));
    expectProblem(await anonymous('POST', '/v1/casefiles/verify', { archive_base64: gzipSync('many').toString('base64') }), 413, 'payload_too_large');
  });
});

describe('GET /ui/casefile', () => {
  it('should serve a self-contained HTML page (no external assets) with a strict CSP', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/ui/casefile' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('<input id="file"');
    expect(res.body).toContain("fetch('/ui/casefile/verify'");
    expect(res.body).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//);
    expect(res.body).not.toMatch(/<link\b/);
  });
});
