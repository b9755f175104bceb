import { ExchangeClient } from './client';
import { ExchangeApiError } from './errors';
import { idempotencyOf } from './idempotency';
import { nodeKeyPair, nodeVerify } from './testing/node-ed25519';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';
import { signVerificationReport, verificationReportPayload, verifyVerificationReport } from './verification-report';
import { toBase64 } from '@exchange/crypto';

const BUYER = 'acme:agent:buyer';
const SELLER = 'acme:agent:seller';
const VERIFIER = 'acme:agent:verifier';
const ok = { id: 'x' };

describe('market APIs', () => {
  let server: RecordingServer;
  let client: ExchangeClient;
  beforeEach(async () => {
    server = await startRecordingServer();
    client = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op-secret' });
  });
  afterEach(() => server.close());

  const lastBody = () => JSON.parse(server.requests.at(-1)!.body.toString('utf8'));

  it('sends each mutation to its path with snake_case fields, absent optionals absent, and the key in the body', async () => {
    const money = { amount: '90', currency: 'CREDIT' };
    const cases: Array<[() => Promise<unknown>, string, Record<string, unknown>]> = [
      [
        () =>
          client.contracts.create({
            title: 't',
            budget: { amount: '100', currency: 'CREDIT' },
            deadline: new Date('2030-01-01T00:00:00Z'),
            acceptanceCriteria: 'c',
            verificationMode: 'verifier',
            verifierId: VERIFIER,
            tags: ['nlp'],
            idempotencyKey: 'k1',
          }),
        '/v1/contracts',
        {
          title: 't',
          budget: { amount: '100', currency: 'CREDIT' },
          deadline: '2030-01-01T00:00:00.000Z',
          acceptance_criteria: 'c',
          verification_mode: 'verifier',
          verifier_id: VERIFIER,
          tags: ['nlp'],
          idempotency_key: 'k1',
        },
      ],
      [() => client.contracts.cancel('ctr_1', { reason: 'r', idempotencyKey: 'k2' }), '/v1/contracts/ctr_1/cancel', { reason: 'r', idempotency_key: 'k2' }],
      [
        () => client.contracts.offers.submit('ctr_1', { price: money, eta: '2030-01-01T00:00:00.000Z', terms: 'json', idempotencyKey: 'k3' }),
        '/v1/contracts/ctr_1/offers',
        { price: money, eta: '2030-01-01T00:00:00.000Z', terms: 'json', idempotency_key: 'k3' },
      ],
      [() => client.contracts.award('ctr_1', 'ofr_1', { idempotencyKey: 'k4' }), '/v1/contracts/ctr_1/award/ofr_1', { idempotency_key: 'k4' }],
      [
        () => client.contracts.results.submit('ctr_1', { summary: 's', artifactRefs: ['sha256:' + 'a'.repeat(64)], payload: { n: [1, null] }, idempotencyKey: 'k5' }),
        '/v1/contracts/ctr_1/results',
        { summary: 's', artifact_refs: ['sha256:' + 'a'.repeat(64)], payload: { n: [1, null] }, idempotency_key: 'k5' },
      ],
      [
        () =>
          client.contracts.verify('ctr_1', {
            verifierId: VERIFIER,
            resultId: 'res_1',
            verdict: 'pass',
            score: 1,
            checks: [{ name: 'a', ok: true, detail: undefined }],
            signature: 'sig',
            idempotencyKey: 'k6',
          }),
        '/v1/contracts/ctr_1/verify',
        { verifier_id: VERIFIER, result_id: 'res_1', verdict: 'pass', score: 1, checks: [{ name: 'a', ok: true }], signature: 'sig', idempotency_key: 'k6' },
      ],
      [
        () => client.contracts.disputes.open('ctr_1', { reason: 'r', evidenceRefs: ['e'], idempotencyKey: 'k7' }),
        '/v1/contracts/ctr_1/disputes',
        { reason: 'r', evidence_refs: ['e'], idempotency_key: 'k7' },
      ],
      [() => client.offers.withdraw('ofr_1', { idempotencyKey: 'k8' }), '/v1/offers/ofr_1/withdraw', { idempotency_key: 'k8' }],
      [
        () => client.disputes.resolve('dsp_1', { outcome: 'split', sellerShareBps: 3000, rationale: 'half', idempotencyKey: 'k9' }),
        '/v1/disputes/dsp_1/resolve',
        { outcome: 'split', seller_share_bps: 3000, rationale: 'half', idempotency_key: 'k9' },
      ],
      [
        () => client.listings.create({ sellerId: SELLER, title: 'L', price: money, turnaround: 'PT24H', idempotencyKey: 'k10' }),
        '/v1/listings',
        { seller_id: SELLER, title: 'L', price: money, turnaround: 'PT24H', idempotency_key: 'k10' },
      ],
      [
        () => client.verifiers.register({ name: 'V', fee: { amount: '2', currency: 'CREDIT' }, idempotencyKey: 'k11' }),
        '/v1/verifiers',
        { name: 'V', fee: { amount: '2', currency: 'CREDIT' }, idempotency_key: 'k11' },
      ],
      [
        () => client.verifiers.listings.create({ title: 'VL', price: money, turnaround: 'PT2H', idempotencyKey: 'k12' }),
        '/v1/verifier-listings',
        { title: 'VL', price: money, turnaround: 'PT2H', idempotency_key: 'k12' },
      ],
    ];
    for (const [call, path, body] of cases) {
      server.respond(json(201, ok));
      await call();
      const req = server.requests.at(-1)!;
      expect({ method: req.method, url: req.url }).toEqual({ method: 'POST', url: path });
      expect(lastBody()).toEqual(body);
    }
  });

  it('sends the reads to their paths with their filters', async () => {
    const calls: Array<() => Promise<unknown>> = [
      () => client.contracts.list({ buyerId: BUYER, status: 'awarded', limit: 5 }),
      () => client.contracts.get('ctr_1'),
      () => client.contracts.receipt('ctr_1'),
      () => client.contracts.verification('ctr_1'),
      () => client.contracts.offers.list('ctr_1', { sellerId: SELLER, status: 'submitted' }),
      () => client.contracts.results.list('ctr_1', { status: 'accepted' }),
      () => client.contracts.disputes.list('ctr_1', { openedBy: BUYER, status: 'open', cursor: 'c' }),
      () => client.offers.get('ofr_1'),
      () => client.results.get('res_1'),
      () => client.disputes.get('dsp_1'),
      () => client.listings.list({ tag: 'nlp' }),
      () => client.listings.get('lst_1'),
      () => client.verifiers.list({ limit: 2 }),
      () => client.verifiers.listings.list({ verifierId: VERIFIER }),
      () => client.telemetry.verification('7d'),
      () => client.telemetry.verification(),
    ];
    for (const call of calls) {
      server.respond(json(200, { data: [], next_cursor: null }));
      await call();
    }
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /v1/contracts?limit=5&buyer_id=${encodeURIComponent(BUYER)}&status=awarded`,
      'GET /v1/contracts/ctr_1',
      'GET /v1/contracts/ctr_1/receipt',
      'GET /v1/contracts/ctr_1/verification',
      `GET /v1/contracts/ctr_1/offers?seller_id=${encodeURIComponent(SELLER)}&status=submitted`,
      'GET /v1/contracts/ctr_1/results?status=accepted',
      `GET /v1/contracts/ctr_1/disputes?cursor=c&opened_by=${encodeURIComponent(BUYER)}&status=open`,
      'GET /v1/offers/ofr_1',
      'GET /v1/results/res_1',
      'GET /v1/disputes/dsp_1',
      'GET /v1/listings?tag=nlp',
      'GET /v1/listings/lst_1',
      'GET /v1/verifiers?limit=2',
      `GET /v1/verifier-listings?verifier_id=${encodeURIComponent(VERIFIER)}`,
      'GET /v1/telemetry/verification?window=7d',
      'GET /v1/telemetry/verification',
    ]);
  });

  it('walks every page of contracts', async () => {
    server.respond(json(200, { data: [{ contract_id: 'a' }], next_cursor: 'n1' }), json(200, { data: [{ contract_id: 'b' }], next_cursor: null }));
    const ids: string[] = [];
    for await (const c of client.contracts.iterate({ status: 'open', limit: 1 })) ids.push(c.contract_id);
    expect(ids).toEqual(['a', 'b']);
    expect(server.requests[1]!.url).toBe('/v1/contracts?limit=1&cursor=n1&status=open');
  });

  it('reports replays and attaches the key to a refusal (e.g. 409 insufficient_funds on award)', async () => {
    server.respond(json(200, ok, { 'idempotent-replayed': 'true' }));
    const replay = await client.contracts.award('ctr_1', 'ofr_1', { idempotencyKey: 'award-1' });
    expect(idempotencyOf(replay)).toMatchObject({ key: 'award-1', replayed: true, status: 200 });

    server.respond(problem(409, 'insufficient_funds', 'insufficient funds', { available: '10' }));
    const err = await client.contracts.award('ctr_1', 'ofr_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect(err).toMatchObject({ status: 409, code: 'insufficient_funds', idempotencyKey: expect.stringMatching(/^sdk-/) });
  });
});

describe('signVerificationReport', () => {
  const report = {
    verifierId: VERIFIER,
    resultId: 'res_1',
    verdict: 'pass' as const,
    score: 0.9,
    checks: [{ name: 'format', ok: true }, { name: 'coverage', ok: false, detail: '39/40' }],
  };

  it('signs the canonical JSON of {verifier_id, result_id, verdict, score, checks}, sorted keys, absent detail absent', () => {
    const keys = nodeKeyPair();
    const signature = signVerificationReport(report, keys.privateKey);
    const canonical =
      '{"checks":[{"name":"format","ok":true},{"detail":"39/40","name":"coverage","ok":false}],' +
      `"result_id":"res_1","score":0.9,"verdict":"pass","verifier_id":"${VERIFIER}"}`;
    expect(nodeVerify(canonical, signature, keys.publicKey)).toBe(true);
    expect(verifyVerificationReport(report, signature, toBase64(keys.publicKey))).toBe(true);
  });

  it('gives checks [] when none are passed, and a signature that no longer verifies for another verdict', () => {
    const keys = nodeKeyPair();
    const bare = { verifierId: VERIFIER, resultId: 'res_1', verdict: 'fail' as const, score: 0 };
    expect(verificationReportPayload(bare)).toEqual({ verifier_id: VERIFIER, result_id: 'res_1', verdict: 'fail', score: 0, checks: [] });
    const signature = signVerificationReport(bare, keys.privateKey);
    const canonical = `{"checks":[],"result_id":"res_1","score":0,"verdict":"fail","verifier_id":"${VERIFIER}"}`;
    expect(nodeVerify(canonical, signature, keys.publicKey)).toBe(true);
    expect(verifyVerificationReport({ ...bare, verdict: 'pass' }, signature, toBase64(keys.publicKey))).toBe(false);
    expect(verifyVerificationReport(bare, 'not-base64!', toBase64(keys.publicKey))).toBe(false);
  });

  it('is sent exactly as signed by client.contracts.verify', async () => {
    const server = await startRecordingServer();
    try {
      const keys = nodeKeyPair();
      const verifier = new ExchangeClient({ baseUrl: server.url, agent: { agentId: VERIFIER, privateKey: keys.privateKey } });
      server.respond(json(201, ok));
      const signature = signVerificationReport(report, keys.privateKey);
      await verifier.contracts.verify('ctr_1', { ...report, signature });
      const sent = JSON.parse(server.requests[0]!.body.toString('utf8'));
      const { signature: sentSignature, idempotency_key: _key, ...signedPart } = sent;
      expect(signedPart).toEqual(verificationReportPayload(report));
      expect(verifyVerificationReport(report, sentSignature, toBase64(keys.publicKey))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
