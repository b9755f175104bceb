import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { http } from './http';
import { HOUR, ISO, MarketHttp, expectProblem, future, newKey, walletPath } from './market-http';
import { canonicalJson } from './raw-agent';
import { bootStack, type Stack } from './stack';

// Issue 13 conformance through the gateway: the current buyer alias is the one minted, reports
// come back exactly as signed (and re-verify), signed numbers follow RFC 8785 (a body written
// `"score": 1.0` by a non-JS client verifies), every validation_failed carries errors[] whichever
// service found it, sandbox defaults of the price index and tape, eta ≤ deadline, and an emergency
// halt in one call. The stack is shared by the file (sandbox, like `npm start`).

let stack: Stack;
let m: MarketHttp;
const ALIAS = /^anon:[a-z2-7]{12}$/;

beforeAll(async () => {
  stack = await bootStack();
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

/** ed25519 verification of `message` with an agent's raw 32-byte public key (base64). */
function verifiesWith(publicKeyBase64: string, message: string, signatureBase64: string): boolean {
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKeyBase64, 'base64')]);
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  return verifySignature(null, Buffer.from(message, 'utf8'), key, Buffer.from(signatureBase64, 'base64'));
}

/** A report body as raw JSON text, written the way Python's json.dumps writes it. */
function pythonStyleBody(fields: Record<string, string>): string {
  return `{${Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}: ${v}`)
    .join(', ')}}`;
}

describe('party alias tokens after a buyer alias rotation (item 2)', () => {
  it('mints the current buyer alias: the rotated one, not the first', async () => {
    const buyer = await m.newAgent('conf-alias-buyer');
    const stranger = await m.newAgent('conf-alias-stranger');
    const created = await m.openContract(buyer, { buyer_private: true });
    const mint = () => m.as(buyer, 'POST', '/v1/party_alias_tokens/mint', { contract_id: created.contract_id, role: 'buyer' });

    // The market minted the first alias when the private contract was created: 200, that token.
    const first = await m.expectStatus(mint(), 200);
    expect(first.alias).toBe(created.buyer_alias);

    const rotated = await m.expectStatus(m.op('POST', `/v1/contracts/${created.contract_id}/buyer-alias`, { reason: 'alias was linked to the buyer' }), 200);
    expect(rotated.buyer_alias).toMatch(ALIAS);
    expect(rotated.buyer_alias).not.toBe(first.alias);

    // The rotation minted generation 1 through identity: the same call now answers that one.
    const current = await m.expectStatus(mint(), 200);
    expect({ alias: current.alias, payload: current.payload }).toEqual({
      alias: rotated.buyer_alias,
      payload: { alias: rotated.buyer_alias, contract_id: created.contract_id, role: 'buyer' },
    });
    // What a stranger sees on the contract is the alias the token names.
    const seen = await m.expectStatus(m.as(stranger, 'GET', `/v1/contracts/${created.contract_id}`), 200);
    expect(seen).toMatchObject({ buyer_id: null, buyer_alias: current.alias });
    // Minting again is the same token, and the operator gets it too.
    expect(await m.expectStatus(mint(), 200)).toEqual(current);
    expect((await m.expectStatus(m.op('POST', '/v1/party_alias_tokens/mint', { contract_id: created.contract_id, role: 'buyer' }), 200)).alias).toBe(current.alias);
  });
});

describe('verification reports exactly as signed (item 3)', () => {
  it('returns checks without a detail key where none was sent, and the signature re-verifies from GET', async () => {
    const d = await m.delivered();
    const checks = [{ name: 'count', ok: true }, { name: 'style', ok: true, detail: 'all under 120 words' }];
    await m.expectStatus(m.verify(d.buyer, d.contractId, d.result.result_id, 'pass', { score: 0.9, checks }), 201);

    const report = await m.expectStatus(m.as(d.buyer, 'GET', `/v1/contracts/${d.contractId}/verification`), 200);
    expect(report.checks).toEqual(checks);
    expect(Object.keys(report.checks[0]).sort()).toEqual(['name', 'ok']);

    // Re-verify from what GET returned, with the buyer's key, building the payload from the answer.
    const payload = canonicalJson({ verifier_id: report.verifier_id, result_id: report.result_id, verdict: report.verdict, score: report.score, checks: report.checks });
    expect(verifiesWith(d.buyer.publicKey, payload, report.signature)).toBe(true);
    expect(verifiesWith(d.buyer.publicKey, payload.replace('"ok":true}', '"ok":true,"detail":null}'), report.signature)).toBe(false);
  });
});

describe('numbers in signed payloads: RFC 8785 (item 4)', () => {
  it('verifies a report whose raw body says "score": 1.0, signed over the JCS form "score":1', async () => {
    const d = await m.delivered();
    // Built by hand as a non-JS client would, not with the exchange's canonicalizer.
    const jcs = `{"checks":[{"name":"count","ok":true}],"result_id":"${d.result.result_id}","score":1,"verdict":"pass","verifier_id":"${d.buyer.agentId}"}`;
    const signature = d.buyer.signBase64(jcs);
    const body = pythonStyleBody({
      verifier_id: JSON.stringify(d.buyer.agentId),
      result_id: JSON.stringify(d.result.result_id),
      verdict: '"pass"',
      score: '1.0',
      checks: '[{"name": "count", "ok": true}]',
      signature: JSON.stringify(signature),
    });
    expect(body).toContain('"score": 1.0');
    const path = `/v1/contracts/${d.contractId}/verify`;
    const res = await http(stack.baseUrl, 'POST', path, { headers: d.buyer.signedHeaders('POST', path, body), rawBody: body });
    expect({ status: res.status, score: res.body.score, verdict: res.body.verdict }).toEqual({ status: 201, score: 1, verdict: 'pass' });
    expect((await m.contract(d.contractId)).status).toBe('settled');
  });

  it('refuses a report signed over "score":1.0 (the float as Python prints it): 400 report_signature_invalid', async () => {
    const d = await m.delivered();
    const naive = `{"checks":[],"result_id":"${d.result.result_id}","score":1.0,"verdict":"pass","verifier_id":"${d.buyer.agentId}"}`;
    const body = pythonStyleBody({
      verifier_id: JSON.stringify(d.buyer.agentId),
      result_id: JSON.stringify(d.result.result_id),
      verdict: '"pass"',
      score: '1.0',
      checks: '[]',
      signature: JSON.stringify(d.buyer.signBase64(naive)),
    });
    const path = `/v1/contracts/${d.contractId}/verify`;
    expectProblem(await http(stack.baseUrl, 'POST', path, { headers: d.buyer.signedHeaders('POST', path, body), rawBody: body }), 400, 'report_signature_invalid');
    expect((await m.contract(d.contractId)).status).toBe('delivered');
  });
});

describe('one validation error shape (item 5)', () => {
  const expectShape = (body: any, pointer: string) => {
    expect(body.errors).toEqual([{ pointer, message: body.detail }]);
    expect(body).not.toHaveProperty('field');
  };

  it('market: a missing budget is errors[] with pointer /budget, no `field`', async () => {
    const buyer = await m.newAgent('conf-val-buyer');
    const res = await m.as(buyer, 'POST', '/v1/contracts', { title: 'No budget', deadline: future(HOUR), acceptance_criteria: 'ok' });
    expectShape(expectProblem(res, 400, 'validation_failed'), '/budget');
  });

  it('wallet-ledger: a crypto address destination without details.address is pointer /details/address', async () => {
    const agent = await m.newAgent('conf-val-wallet');
    const res = await m.as(agent, 'POST', walletPath(agent, '/payout_destinations'), { type: 'crypto_address', details: {}, label: 'cold', idempotency_key: newKey('pod') });
    expectShape(expectProblem(res, 400, 'validation_failed'), '/details/address');
  });

  it('gateway schema errors keep their errors[] as before', async () => {
    const buyer = await m.newAgent('conf-val-schema');
    const res = await m.as(buyer, 'POST', '/v1/contracts', m.contractBody({ unknown_field: 1 }));
    expect(expectProblem(res, 400, 'validation_failed').errors).toEqual([{ pointer: '/unknown_field', message: 'unknown field' }]);
  });
});

describe('price index and task tape defaults; eta within the deadline (item 9)', () => {
  it('counts sandbox contracts by default on this sandbox exchange, for both', async () => {
    const tag = `conf-${Date.now().toString(36)}`;
    const s = await m.settled({ contract: { tags: [tag] }, price: '40' });
    expect((await m.contract(s.contractId)).sandbox).toBe(true);

    const index = await m.expectStatus(m.as(s.buyer, 'GET', `/v1/price-index?tag=${tag}`), 200);
    expect(index).toMatchObject({ include_sandbox: true, data: [{ tag, currency: 'CREDIT', count: 1, median: '40' }] });
    const without = await m.expectStatus(m.as(s.buyer, 'GET', `/v1/price-index?tag=${tag}&include_sandbox=false`), 200);
    expect(without).toMatchObject({ include_sandbox: false, data: [] });

    const tape = await m.expectStatus(m.as(s.buyer, 'GET', '/v1/task-tape?window=1h'), 200);
    expect(tape.include_sandbox).toBe(true);
    expect(tape.settled.count).toBeGreaterThanOrEqual(1);
  });

  it('refuses an offer whose eta is after the contract deadline (400 invalid_eta naming the deadline), accepts eta = deadline', async () => {
    const buyer = await m.newAgent('conf-eta-buyer');
    const seller = await m.newAgent('conf-eta-seller');
    const c = await m.openContract(buyer, { deadline: future(2 * HOUR) });
    const late = expectProblem(await m.offer(seller, c.contract_id, '50', { eta: new Date(Date.parse(c.deadline) + 1000).toISOString() }), 400, 'invalid_eta');
    expect(late).toMatchObject({ deadline: c.deadline, detail: expect.stringContaining(c.deadline) });
    expect((await m.expectStatus(m.op('GET', `/v1/contracts/${c.contract_id}/offers`), 200)).data).toEqual([]);
    const onTime = await m.submitOffer(seller, c.contract_id, '50', { eta: c.deadline });
    expect(onTime).toMatchObject({ status: 'submitted', eta: c.deadline });
  });
});

describe('emergency halt in one call (item 11)', () => {
  afterEach(async () => {
    const s = await m.expectStatus(m.op('GET', '/v1/market-integrity/state'), 200);
    if (s.state !== 'normal') await m.expectStatus(m.op('POST', '/v1/market-integrity/state', { state: 'normal', reason: 'e2e cleanup' }), 200);
  });

  it('goes normal → halted directly, audited once, blocks new contracts; lowering is free', async () => {
    const halted = await m.expectStatus(m.op('POST', '/v1/market-integrity/state', { state: 'halted', reason: 'incident: double settlements' }), 200);
    expect(halted).toMatchObject({ state: 'halted', reason: 'incident: double settlements', since: expect.stringMatching(ISO), wallet_controls_synced: true });

    const audit = await m.expectStatus(m.op('GET', '/v1/market-integrity/audit?action=state_changed&limit=1'), 200);
    expect(audit.data[0]).toMatchObject({ action: 'state_changed', subject: 'halted', reason: 'incident: double settlements', details: { before: 'normal', after: 'halted' } });

    const buyer = await m.newAgent('conf-halt-buyer');
    expectProblem(await m.createContract(buyer), 503, 'market_halted');

    const lowered = await m.expectStatus(m.op('POST', '/v1/market-integrity/state', { state: 'elevated', reason: 'contained' }), 200);
    expect(lowered.state).toBe('elevated');
    const restricted = await m.expectStatus(m.op('POST', '/v1/market-integrity/state', { state: 'halted', reason: 'again' }), 200);
    expect(restricted.state).toBe('halted');
    expectProblem(await m.op('POST', '/v1/market-integrity/state', { state: 'halted', reason: 'same' }), 409, 'invalid_state');
  });
});
