import { errors } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { expectProblem } from './harness';
import { asOperator, buyer, contractBody, h, signed, useMarketHarness } from './market-setup';

// Contract labels and input_refs through the gateway: the body's limits (TypeBox, before the
// market is called), the mapping to CreateContract and back on every contract read.

useMarketHarness();

const LABELS = { workflow_run_id: 'wfr_1', stage: 'translate', shard: '3', attempt: '1' };
const INPUT_REFS = [`sha256:${'ab'.repeat(32)}`, 'res_1'];

describe('contract labels and input_refs', () => {
  it('should pass them to CreateContract and return them on create, read and list', async () => {
    const res = await signed(buyer, 'POST', '/v1/contracts', contractBody({ labels: LABELS, input_refs: INPUT_REFS }));
    expect(res.statusCode).toBe(201);
    const req = h.market.lastCall<marketV1.CreateContractRequest>('createContract').request;
    expect([req.labels, req.inputRefs]).toEqual([LABELS, INPUT_REFS]);
    const created = res.json();
    expect(created).toMatchObject({ labels: LABELS, input_refs: INPUT_REFS });
    const read = await signed(buyer, 'GET', `/v1/contracts/${created.contract_id}`);
    expect(read.json()).toEqual(created);
    const listed = (await asOperator('GET', '/v1/contracts?limit=100')).json().data.find((c: { contract_id: string }) => c.contract_id === created.contract_id);
    expect(listed).toMatchObject({ labels: LABELS, input_refs: INPUT_REFS });
  });

  it('should send {} and [] when left out and always answer both fields', async () => {
    const res = await signed(buyer, 'POST', '/v1/contracts', contractBody());
    const req = h.market.lastCall<marketV1.CreateContractRequest>('createContract').request;
    expect([req.labels, req.inputRefs]).toEqual([{}, []]);
    expect(res.json()).toMatchObject({ labels: {}, input_refs: [] });
  });

  it('should accept the limits: 16 labels, 64-character keys, 256-character values, 64 refs of 512', async () => {
    const labels = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, 'v'.repeat(256)]));
    labels['k'.repeat(64)] = 'é'.repeat(256);
    const refs = Array.from({ length: 64 }, () => 'r'.repeat(512));
    const res = await signed(buyer, 'POST', '/v1/contracts', contractBody({ labels, input_refs: refs }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ labels, input_refs: refs });
  });

  it('should refuse bad labels and input_refs with 400 validation_failed without calling the market', async () => {
    const before = h.market.calls.length;
    const bad: Array<Record<string, unknown>> = [
      { labels: { 'Bad Key': 'x' } },
      { labels: { ['k'.repeat(65)]: 'x' } },
      { labels: { '': 'x' } },
      { labels: { stage: '' } },
      { labels: { stage: 'x'.repeat(257) } },
      { labels: { shard: 3 } },
      { labels: ['stage'] },
      { labels: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
      { input_refs: [''] },
      { input_refs: ['x'.repeat(513)] },
      { input_refs: Array.from({ length: 65 }, (_, i) => `r${i}`) },
      { input_refs: 'res_1' },
    ];
    for (const over of bad) expectProblem(await signed(buyer, 'POST', '/v1/contracts', contractBody(over)), 400, 'validation_failed');
    expect(h.market.calls.length).toBe(before);
  });

  it('should carry the market’s refusal of a control character as 400 validation_failed', async () => {
    h.market.failNext('createContract', errors.invalidArgument('validation_failed', 'label stage must be 1-256 printable characters', { field: 'labels' }));
    expectProblem(await signed(buyer, 'POST', '/v1/contracts', contractBody({ labels: { stage: 'a\u0001b' } })), 400, 'validation_failed');
  });
});
