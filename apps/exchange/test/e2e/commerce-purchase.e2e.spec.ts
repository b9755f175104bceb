import { writeArchive, type Docket } from '@exchange/casefile';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CommerceHttp, MERCHANT, sessionPath } from './commerce-http';
import { http } from './http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { newKey } from './wallet-http';

// A whole purchase at the built-in sandbox merchant, as a buyer agent with no SDK would make it:
// a signed mandate with step-up above 50 USD, negotiation, a checkout of 70 USD, a discount code
// (63 USD), complete refused until the signer approves, complete (hold → merchant → settlement),
// the merchant's signed order webhook kept as evidence, the exchange-signed receipt, and the
// casefile verified by the exchange and offline by the CLI. The ledger balances afterwards.

const run = promisify(execFile);
const repoRoot = resolve(__dirname, '../../../..');

let stack: Stack;
let c: CommerceHttp;
let buyer: RawAgent;
let signer: RawAgent;
let workDir: string;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  buyer = await c.newAgent('shopper');
  signer = await c.newAgent('principal');
  await c.fund(buyer, '500', 'USD');
  workDir = await mkdtemp(join(tmpdir(), 'commerce-e2e-'));
});

afterAll(async () => {
  await stack?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('buys under a mandate with step-up approval, and leaves signed, verifiable evidence', async () => {
  // The platform profile any merchant fetches, public.
  const platform = await http(stack.baseUrl, 'GET', '/.well-known/ucp');
  expect(platform.status).toBe(200);
  expect(platform.body.ucp.version).toBe('2026-04-08');
  expect(platform.body.signing_keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256' });

  const mandate = await c.createMandate(signer, buyer, {
    perTransaction: '100',
    total: '300',
    autonomy: { mode: 'step_up', step_up_threshold: { amount: '50', currency: 'USD' }, approval_for_new_merchants: false },
  });
  expect(mandate).toMatchObject({ status: 'active', spent: '0', autonomy: { mode: 'step_up' } });

  const profile = await c.expectStatus(c.as(buyer, 'GET', `/v1/commerce/ucp/merchants/${MERCHANT}/profile`), 200);
  expect(profile.profile.ucp.version).toBe('2026-04-08');
  const negotiated = await c.expectStatus(c.as(buyer, 'POST', '/v1/commerce/ucp/negotiate', { merchant_domain: MERCHANT }), 200);
  expect(negotiated.status).toBe('ok');
  expect(negotiated.capabilities.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['dev.ucp.shopping.checkout']));

  // 2 × roses at 35.00 = 70.00 USD: above the 50 USD step-up threshold.
  const created = await c.expectStatus(c.createCheckout(buyer, c.checkoutBody(mandate.mandate_id, [['bouquet_roses', 2]])), 201);
  expect(created).toMatchObject({ status: 'ready_for_complete', approval: 'pending', total: '70', currency: 'USD', mode: 'live' });
  const id = created.commerce_session_id;

  const discounted = await c.expectStatus(c.as(buyer, 'POST', sessionPath(id, '/discount'), { codes: ['10OFF'] }, { 'idempotency-key': newKey('disc') }), 200);
  expect(discounted.applied).toEqual(['10OFF']);
  expect(discounted.session).toMatchObject({ total: '63', list_total: '70', savings: '7', approval: 'pending' });

  const refused = await c.as(buyer, 'POST', sessionPath(id, '/complete'), {}, { 'idempotency-key': newKey('complete') });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('approval_required');

  const approved = await c.expectStatus(c.as(signer, 'POST', sessionPath(id, '/approval'), c.approvalBody(signer, discounted.session, 'approve')), 200);
  expect(approved.approval).toBe('approved');

  const done = await c.expectStatus(c.as(buyer, 'POST', sessionPath(id, '/complete'), {}, { 'idempotency-key': newKey('complete') }), 200);
  expect(done.session).toMatchObject({ status: 'completed', payment_stage: 'settled' });
  expect(done.purchase).toMatchObject({ amount: '63', currency: 'USD', merchant_domain: MERCHANT });
  expect(done.purchase.deal_id).toMatch(/^deal_/);

  // The money: 63 USD left the buyer; the hold is gone; the receipt is the exchange's.
  expect(await c.balance(buyer, 'USD')).toEqual({ available: '437', held: '0' });
  const receipt = done.purchase.receipt;
  expect(receipt).toMatchObject({ payer: buyer.agentId, payee: `merchant:${MERCHANT}`, amount: '63', currency: 'USD' });
  expect(typeof receipt.signature).toBe('string');
  const mandateAfter = await c.expectStatus(c.as(signer, 'GET', `/v1/mandates/${mandate.mandate_id}`), 200);
  expect(mandateAfter).toMatchObject({ spent: '63', reserved: '0' });

  // The merchant's RFC 9421-signed order webhook reaches the gateway and is kept as evidence.
  const items = await waitFor('the order webhook', async () => {
    const page = await c.expectStatus(c.as(buyer, 'GET', sessionPath(id, '/artifacts?limit=200')), 200);
    return page.items.some((i: { kind: string }) => i.kind === 'order_webhook') ? page : undefined;
  });
  expect(items.chain_valid).toBe(true);
  const kinds = items.items.map((i: { kind: string }) => i.kind);
  expect(kinds).toEqual(expect.arrayContaining(['merchant_request', 'merchant_response', 'approval', 'order_webhook']));
  // Every message exchanged with the merchant was checked against the UCP schemas, and passed.
  for (const item of items.items as Array<{ kind: string; schema_result: string }>) {
    if (item.kind === 'merchant_request' || item.kind === 'merchant_response') expect(item).toMatchObject({ schema_result: 'valid' });
  }

  // The casefile: signed by the exchange, verified by it and offline by the CLI.
  const exported = await c.expectStatus(c.as(buyer, 'POST', sessionPath(id, '/casefile/export'), {}), 200);
  const docket = exported.docket as Docket;
  const verified = await c.expectStatus(c.as(buyer, 'POST', sessionPath(id, '/casefile/verify'), { docket }), 200);
  expect(verified.valid).toBe(true);
  const file = join(workDir, 'checkout.tar.gz');
  await writeFile(file, await writeArchive(docket));
  const health = await http(stack.baseUrl, 'GET', '/health');
  const cli = await run('npx', ['tsx', 'libs/sdk/src/cli/main.ts', 'casefile', 'verify', file, '--exchange-key', health.body.exchange_public_key], {
    cwd: repoRoot,
    env: { ...process.env, EXCHANGE_PUBLIC_KEY: '' },
  });
  expect(cli.stdout).toMatch(/^VALID: /m);

  await c.expectLedgerOk();
});
