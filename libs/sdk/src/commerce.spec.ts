import { canonicalize } from '@exchange/crypto';
import { signApproval } from './checkout';
import { signMandate } from './mandates';
import { ExchangeClient } from './client';
import { ExchangeApiError } from './errors';
import { idempotencyOf } from './idempotency';
import { nodeKeyPair, nodeVerify } from './testing/node-ed25519';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';

// The commerce, checkout and mandates APIs against a recording server: paths, snake_case bodies
// with absent optionals absent, keys, queries, pagination and errors.

describe('commerce, checkout and mandates APIs', () => {
  let server: RecordingServer;
  let client: ExchangeClient;
  beforeEach(async () => {
    server = await startRecordingServer();
    client = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op-secret' });
  });
  afterEach(() => server.close());

  const last = () => server.requests.at(-1)!;
  const lastBody = () => JSON.parse(last().body.toString('utf8'));

  it('sends each mutation to its path with snake_case fields and the key in the body when the route takes one', async () => {
    const lineItems = [{ item: { id: 'sku-1' }, quantity: 2 }];
    const autonomy = { mode: 'step_up' as const, stepUpThreshold: { amount: '50', currency: 'USD' }, approvalForNewMerchants: true };
    const cases: Array<[() => Promise<unknown>, string, string, Record<string, unknown>]> = [
      [() => client.commerce.negotiate('m.example'), 'POST', '/v1/commerce/ucp/negotiate', { merchant_domain: 'm.example' }],
      [
        () => client.checkout.create({ mandateId: 'mdt_1', merchantDomain: 'm.example', lineItems, mode: 'shadow', discountCodes: ['A'], idempotencyKey: 'k1' }),
        'POST',
        '/v1/commerce/ucp/checkout/create',
        { mandate_id: 'mdt_1', merchant_domain: 'm.example', line_items: lineItems, mode: 'shadow', discount_codes: ['A'], idempotency_key: 'k1' },
      ],
      [() => client.checkout.update('cks_1', { discountCodes: [], idempotencyKey: 'k2' }), 'POST', '/v1/commerce/ucp/checkout/cks_1/update', { discount_codes: [], idempotency_key: 'k2' }],
      [() => client.checkout.complete('cks_1', { idempotencyKey: 'k3' }), 'POST', '/v1/commerce/ucp/checkout/cks_1/complete', { idempotency_key: 'k3' }],
      [() => client.checkout.cancel('cks_1', { idempotencyKey: 'k4' }), 'POST', '/v1/commerce/ucp/checkout/cks_1/cancel', { idempotency_key: 'k4' }],
      [
        () => client.checkout.submitApproval('cks_1', { decision: 'approve', approverId: 'a:agent:s', signature: 'sig' }),
        'POST',
        '/v1/commerce/ucp/checkout/cks_1/approval',
        { decision: 'approve', approver_id: 'a:agent:s', signature: 'sig' },
      ],
      [() => client.checkout.applyDiscount('cks_1', ['A'], { idempotencyKey: 'k5' }), 'POST', '/v1/commerce/ucp/checkout/cks_1/discount', { codes: ['A'], idempotency_key: 'k5' }],
      [() => client.checkout.verifyCasefile('cks_1'), 'POST', '/v1/commerce/ucp/checkout/cks_1/casefile/verify', {}],
      [
        () => client.commerce.verifyWebhook({ headers: { signature: 's' }, body: '{"id":1}', url: 'https://x.example/hook' }),
        'POST',
        '/v1/commerce/ucp/webhooks/verify',
        { headers: { signature: 's' }, body_base64: Buffer.from('{"id":1}').toString('base64'), url: 'https://x.example/hook' },
      ],
      [
        () =>
          client.mandates.create({
            signerAgentId: 'a:agent:s',
            agentId: 'a:agent:b',
            scope: { merchants: ['m.example'], categories: [], skus: [] },
            limits: { perTransaction: '100', total: '500', currency: 'USD' },
            expiresAt: new Date('2027-01-01T00:00:00Z'),
            signature: 'sig',
            autonomy: { ...autonomy, dailyLimit: '200' },
            idempotencyKey: 'k6',
          }),
        'POST',
        '/v1/mandates',
        {
          signer_agent_id: 'a:agent:s',
          agent_id: 'a:agent:b',
          scope: { merchants: ['m.example'], categories: [], skus: [] },
          limits: { per_transaction: '100', total: '500', currency: 'USD' },
          expires_at: '2027-01-01T00:00:00.000Z',
          signature: 'sig',
          autonomy: { mode: 'step_up', step_up_threshold: { amount: '50', currency: 'USD' }, approval_for_new_merchants: true, daily_limit: '200' },
          idempotency_key: 'k6',
        },
      ],
      [
        () => client.mandates.putAutonomy('mdt_1', autonomy),
        'PUT',
        '/v1/mandates/mdt_1/autonomy',
        { mode: 'step_up', step_up_threshold: { amount: '50', currency: 'USD' }, approval_for_new_merchants: true },
      ],
      [
        () => client.mandates.putAutonomy('mdt_1', { mode: 'autonomous', approvalForNewMerchants: false }),
        'PUT',
        '/v1/mandates/mdt_1/autonomy',
        { mode: 'autonomous', approval_for_new_merchants: false },
      ],
      [() => client.mandates.setStatus('mdt_1', 'revoked'), 'POST', '/v1/mandates/mdt_1/status', { status: 'revoked' }],
    ];
    for (const [call, method, path, body] of cases) {
      server.respond(json(200, { ok: true }));
      await call();
      expect({ method: last().method, url: last().url, body: lastBody() }).toEqual({ method, url: path, body });
    }
  });

  it('generates a key when none is given and reports a replay', async () => {
    server.respond(json(201, { commerce_session_id: 'cks_1' }, { 'idempotent-replayed': 'true' }));
    const session = await client.checkout.create({ mandateId: 'mdt_1', merchantDomain: 'm.example', lineItems: [{ item: { id: 'x' }, quantity: 1 }] });
    expect(lastBody().idempotency_key).toMatch(/^sdk-/);
    expect(idempotencyOf(session)).toMatchObject({ replayed: true, status: 201 });
  });

  it('sends the reads to their paths with their queries', async () => {
    const calls: Array<() => Promise<unknown>> = [
      () => client.commerce.platformProfile(),
      () => client.commerce.merchantProfile('m.example', { refresh: true }),
      () => client.checkout.get('cks_1'),
      () => client.checkout.get('cks_1', { refresh: true }),
      () => client.checkout.listArtifacts('cks_1', { limit: 5, cursor: 'c' }),
      () => client.mandates.get('mdt_1'),
      () => client.mandates.list({ signerAgentId: 'a:agent:s', status: 'paused', limit: 2 }),
      () => client.mandates.getAutonomy('mdt_1'),
    ];
    for (const call of calls) {
      server.respond(json(200, { data: [], items: [], next_cursor: null }));
      await call();
    }
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /.well-known/ucp',
      'GET /v1/commerce/ucp/merchants/m.example/profile?refresh=true',
      'GET /v1/commerce/ucp/checkout/cks_1',
      'GET /v1/commerce/ucp/checkout/cks_1?refresh=true',
      'GET /v1/commerce/ucp/checkout/cks_1/artifacts?limit=5&cursor=c',
      'GET /v1/mandates/mdt_1',
      `GET /v1/mandates?limit=2&signer_agent_id=${encodeURIComponent('a:agent:s')}&status=paused`,
      'GET /v1/mandates/mdt_1/autonomy',
    ]);
  });

  it('walks every evidence page and unwraps the exported docket', async () => {
    server.respond(json(200, { items: [{ seq: 1 }], next_cursor: 'c2', chain_valid: true }), json(200, { items: [{ seq: 2 }], next_cursor: null, chain_valid: true }));
    const seqs: number[] = [];
    for await (const item of client.checkout.iterateArtifacts('cks_1')) seqs.push(item.seq);
    expect(seqs).toEqual([1, 2]);
    expect(server.requests.at(-1)!.url).toBe('/v1/commerce/ucp/checkout/cks_1/artifacts?cursor=c2');
    server.respond(json(200, { docket: { docket_id: 'dkt_1' } }));
    expect(await client.checkout.exportCasefile('cks_1')).toEqual({ docket_id: 'dkt_1' });
  });

  it('throws the problem as ExchangeApiError with its code and members', async () => {
    server.respond(problem(409, 'approval_required', 'waiting for the signer', { reason: 'step_up_threshold' }));
    const err = await client.checkout.complete('cks_1', { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect(err).toMatchObject({ status: 409, code: 'approval_required', idempotencyKey: 'k' });
  });
});

describe('signApproval', () => {
  it('signs canonical {commerce_session_id, decision, approver_id, total, currency} with the approver key', () => {
    const keys = nodeKeyPair();
    const input = { commerceSessionId: 'cks_1', decision: 'approve' as const, approverId: 'a:agent:s', total: '34.2', currency: 'USD' };
    const signature = signApproval(input, keys.privateKey);
    const payload = { commerce_session_id: 'cks_1', decision: 'approve', approver_id: 'a:agent:s', total: '34.2', currency: 'USD' };
    // Checked with node:crypto, not the signing library.
    expect(nodeVerify(canonicalize(payload), signature, keys.publicKey)).toBe(true);
    expect(nodeVerify(canonicalize({ ...payload, total: '34.3' }), signature, keys.publicKey)).toBe(false);
  });
});

describe('signMandate', () => {
  it('signs canonical {signer_agent_id, agent_id, scope, limits, expires_at} with expires_at normalised to toISOString', () => {
    const keys = nodeKeyPair();
    const signature = signMandate(
      {
        signerAgentId: 'a:agent:s',
        agentId: 'a:agent:b',
        scope: { merchants: ['m.example'], categories: [], skus: ['k'] },
        limits: { perTransaction: '100.50', total: '500', currency: 'USD' },
        expiresAt: '2027-01-01T01:00:00+01:00',
      },
      keys.privateKey,
    );
    const payload = {
      signer_agent_id: 'a:agent:s',
      agent_id: 'a:agent:b',
      scope: { merchants: ['m.example'], categories: [], skus: ['k'] },
      limits: { per_transaction: '100.50', total: '500', currency: 'USD' },
      expires_at: '2027-01-01T00:00:00.000Z',
    };
    expect(nodeVerify(canonicalize(payload), signature, keys.publicKey)).toBe(true);
    expect(nodeVerify(canonicalize({ ...payload, agent_id: 'a:agent:x' }), signature, keys.publicKey)).toBe(false);
  });
});
