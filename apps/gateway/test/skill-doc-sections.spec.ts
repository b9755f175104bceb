import { publicKeyFromPrivate, signCanonical, toBase64 } from '@exchange/crypto';
import { h, skill, useSkillDocHarness } from './skill-doc-setup';

// The per-area sections of /skill.md (wallet, contracts, signed numbers, objects and casefiles,
// insights and integrity), as skill-doc.spec.ts.

useSkillDocHarness();

describe('GET /skill.md wallet section', () => {
  it('should explain idempotency keys, replays, caps and receipts', () => {
    for (const text of [
      '## 6. Your wallet',
      'Idempotency-Key',
      'Idempotent-Replayed: true',
      'idempotency_key_reused',
      'idempotency_in_progress',
      'faucet_cap_exceeded',
      'GET /v1/receipts/{receipt_id}',
    ]) {
      expect(skill).toContain(text);
    }
  });

  it('should give receipt verification code that accepts an exchange-signed receipt and rejects a changed one', () => {
    const block = /<!-- receipt-verify:start -->\s*```js\n([\s\S]*?)```/.exec(skill);
    expect(block).not.toBeNull();
    const verifyReceipt = new Function('require', `${block![1]}\nreturn verifyReceipt;`)(require) as (r: object, key: string) => boolean;
    // Signed with the exchange's own library (canonicalize + @noble/ed25519), not with the snippet's code.
    const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
    const exchangeKey = toBase64(publicKeyFromPrivate(seed));
    const unsigned = {
      receipt_id: 'rcpt_doc',
      kind: 'settlement',
      contract_id: 'ctr_doc',
      hold_id: 'hld_doc',
      payer: 'doc:agent:buyer',
      payee: 'doc:agent:seller',
      amount: '25',
      fee: '0.5',
      refunded_amount: '5',
      currency: 'CREDIT',
      journal_entry_ids: ['jrn_1', 'jrn_2'],
      settled_at: '2026-11-21T18:00:00.000Z',
      signer_public_key: exchangeKey,
    };
    const receipt = { ...unsigned, signature: signCanonical(unsigned, seed) };
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    expect(verifyReceipt({ ...receipt, fee: '0' }, exchangeKey)).toBe(false);
    expect(verifyReceipt(receipt, toBase64(publicKeyFromPrivate(Buffer.alloc(32, 9))))).toBe(false);
  });
});

describe('GET /skill.md contracts section', () => {
  it('should explain the roles, the routes and the market error codes', () => {
    for (const text of [
      '## 7. Contracts: buying and selling work',
      'POST | `/v1/contracts`',
      '/v1/contracts/{contract_id}/award/{offer_id}',
      '/v1/contracts/{contract_id}/receipt',
      'report_signature_invalid',
      'wallet_unavailable',
      'self_dealing',
    ]) {
      expect(skill).toContain(text);
    }
  });

  it('should give report signing code whose signature the exchange’s own canonical signer reproduces', () => {
    const block = /<!-- report-sign:start -->\s*```js\n([\s\S]*?)```/.exec(skill);
    expect(block).not.toBeNull();
    type Report = { verifier_id: string; result_id: string; verdict: string; score: number; checks?: unknown[] };
    const signReport = new Function('require', `${block![1]}\nreturn signReport;`)(require) as (seed: Buffer, r: Report) => Report & { signature: string };
    const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
    const report = {
      verifier_id: 'doc:agent:verifier',
      result_id: 'res_doc',
      verdict: 'pass',
      score: 0.75,
      checks: [{ name: 'count', ok: true }, { name: 'style', ok: false, detail: 'two too long' }],
    };
    const body = signReport(seed, report);
    // ed25519 is deterministic: the market's signer (canonicalize + @noble/ed25519) gives the same bytes.
    expect(body).toEqual({ ...report, signature: signCanonical(report, seed) });
    expect(signReport(seed, { ...report, checks: undefined }).checks).toEqual([]);
  });
});

describe('GET /skill.md numbers in signed payloads', () => {
  it('should state the JCS number rule with examples and give the Python canonicalizer and report signer', () => {
    for (const text of ['`1.0` → `1`', '`0.90` → `0.9`', '`1e21` → `1e+21`', 'def jcs_number(x) -> str:', 'def canonical(v) -> str:', 'def sign_report(']) {
      expect(skill).toContain(text);
    }
    expect(skill).not.toContain('integers only');
  });
});

describe('GET /skill.md objects, artifacts and casefiles section', () => {
  it('should explain objects, artifacts, casefiles (with the offline CLI), aliases and the registry error codes', () => {
    for (const text of [
      '## 8. Objects, artifacts and casefiles',
      'POST /v1/attestations/query',
      'multipart/form-data',
      '451 artifact_removed',
      'POST /v1/casefiles/export',
      'npx exchange casefile verify casefile.tar.gz',
      '/ui/casefile',
      'POST /v1/party_alias_tokens/mint',
      'buyer_private: true',
      'object_signature_invalid',
      '`payload_too_large`',
      '| 451 | `artifact_removed`',
    ]) {
      expect(skill).toContain(text);
    }
    expect(skill).not.toMatch(/\{\{[A-Z_]+\}\}/);
  });

  it('should give object signing code whose signature the registry’s canonical signer reproduces', () => {
    const block = /<!-- object-sign:start -->\s*```js\n([\s\S]*?)```/.exec(skill);
    expect(block).not.toBeNull();
    type Body = { type: string; payload: unknown; signature: string; visibility?: string };
    const signObject = new Function('require', `${block![1]}\nreturn signObject;`)(require) as (seed: Buffer, type: string, payload: unknown, extra?: object) => Body;
    const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
    const payload = { subject_ref: 'sha256:' + 'ab'.repeat(32), claim: 'reviewed', z: [1, { b: 2, a: 'é' }] };
    const body = signObject(seed, 'attestation', payload, { visibility: 'public' });
    expect(body).toEqual({ type: 'attestation', payload, signature: signCanonical(payload, seed), visibility: 'public' });
  });
});

describe('GET /skill.md market insights, templates, fixtures, coordination and integrity section', () => {
  it('should name every issue-6 route, its rules and its error codes', () => {
    for (const text of [
      '## 9. Market insights, templates, fixtures, coordination and integrity',
      '/v1/reputation/{agent_id}',
      '/v1/reputation/verifier/{verifier_id}',
      '/v1/recommendations/contracts/{contract_id}/sellers',
      '/v1/recommendations/sellers/{seller_id}/contracts',
      '/v1/price-index',
      '/v1/task-tape',
      '/v1/contract-templates',
      '/v1/work-product-templates',
      '/v1/fixtures/sellers',
      '/v1/coordination/threads/{thread_id}/posts',
      '/v1/market-integrity/state',
      '/v1/market-integrity/kill-switches',
      '/v1/market-integrity/erroneous-clear',
      '/v1/market-integrity/audit',
      '/v1/contracts/{contract_id}/buyer-alias',
      '/v1/contracts/resale-lineage/review-decisions/{decision_ref}',
      'X-Request-Id',
      'market_halted',
      'kill_switch:<name>',
      'resale_review_pending',
      'GATEWAY_INTEGRITY_CACHE_MS',
      'corrects_receipt_id',
    ]) {
      expect(skill).toContain(text);
    }
  });

  it('should list only routes the gateway serves', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, object> };
    const section = skill.slice(skill.indexOf('## 9. Market insights'), skill.indexOf('## 10. Rate limits'));
    const paths = [...section.matchAll(/`(\/v1\/[a-z0-9/{}_-]+)/g)].map((m) => m[1]!.replace(/\/+$/, ''));
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) expect({ path, served: path in doc.paths }).toEqual({ path, served: true });
  });
});

describe('GET /skill.md telemetry section', () => {
  it('should list every telemetry route the gateway serves, the privacy rule and JSONL exports', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, object> };
    const section = skill.slice(skill.indexOf('### Telemetry'), skill.indexOf('## 10. Rate limits'));
    // /v1/telemetry/verification is the market's verification metrics (section 7).
    const served = Object.keys(doc.paths).filter((p) => (p.startsWith('/v1/telemetry/') && p !== '/v1/telemetry/verification') || p === '/v1/metrics/outcomes');
    expect(served).toHaveLength(13);
    for (const path of served) expect({ path, documented: section.includes(path.replace(/^\/v1\/telemetry\/rollups\/(bytes-to-atoms|coordination)$/, '/$1')) }).toEqual({ path, documented: true });
    for (const text of ['anon:', 'application/x-ndjson', 'operator_token_required', 'invalid_signal_time', 'category_not_found', 'invalid_week_start']) {
      expect(section).toContain(text);
    }
  });
});
