import { canonicalBytes } from '@exchange/crypto';
import { sign, type KeyObject } from 'node:crypto';
import { measuredLoop, type Phase } from './closed-loop';
import type { ContractsScenario, LoadResult, StepFigures } from './scenario';
import { keyFromSeed, signedHeaders } from './signing';
import { summarize } from './stats';

// One contract from create to settled through the gateway (skill.md §7), as the agents would:
// the buyer opens it (verification mode `buyer`), the seller offers, the operator awards (escrow
// held), the seller delivers, the buyer signs a passing report (settles), and a read of the
// contract confirms `settled`. Each step's latency is recorded separately.

const STEPS = ['create', 'offer', 'award', 'deliver', 'verify', 'read settled'] as const;
type Step = (typeof STEPS)[number];

interface Party {
  agentId: string;
  key: KeyObject;
}

export async function contractsLoad(s: ContractsScenario, phase: (p: Phase) => void): Promise<LoadResult> {
  const pairs = s.pairs.map((p) => ({
    buyer: { agentId: p.buyer.agentId, key: keyFromSeed(p.buyer.seed) },
    seller: { agentId: p.seller.agentId, key: keyFromSeed(p.seller.seed) },
  }));
  const samples = new Map<Step, number[]>(STEPS.map((step) => [step, []]));
  let recording = false;

  async function call(step: Step, method: 'GET' | 'POST', path: string, as: Party | 'operator', body?: unknown): Promise<Record<string, unknown>> {
    const text = body === undefined ? '' : JSON.stringify(body);
    const auth = as === 'operator' ? { authorization: `Bearer ${s.operatorToken}` } : signedHeaders(as.agentId, as.key, method, path, text);
    const t0 = performance.now();
    const res = await fetch(s.url + path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : text,
    });
    const answer = await res.text();
    if (recording) samples.get(step)?.push(performance.now() - t0);
    if (!res.ok) throw new Error(`${step}: ${res.status} ${answer.slice(0, 200)}`);
    return JSON.parse(answer) as Record<string, unknown>;
  }

  async function flow(loop: number) {
    const { buyer, seller } = pairs[loop % pairs.length];
    const price = { amount: s.price, currency: 'CREDIT' };
    const deadline = new Date(Date.now() + 24 * 3600_000).toISOString();
    const contract = await call('create', 'POST', '/v1/contracts', buyer, {
      title: 'Benchmark task',
      tags: ['bench'],
      budget: price,
      deadline,
      acceptance_criteria: 'Any answer',
      verification_mode: 'buyer',
    });
    const id = String(contract.contract_id);
    const offer = await call('offer', 'POST', `/v1/contracts/${id}/offers`, seller, { price, eta: new Date(Date.now() + 3600_000).toISOString() });
    await call('award', 'POST', `/v1/contracts/${id}/award/${String(offer.offer_id)}`, 'operator', {});
    const result = await call('deliver', 'POST', `/v1/contracts/${id}/results`, seller, { summary: 'done', payload: { ok: true } });
    const report = { verifier_id: buyer.agentId, result_id: String(result.result_id), verdict: 'pass', score: 1, checks: [] };
    const signature = sign(null, canonicalBytes(report), buyer.key).toString('base64');
    await call('verify', 'POST', `/v1/contracts/${id}/verify`, buyer, { ...report, signature });
    const settled = await call('read settled', 'GET', `/v1/contracts/${id}`, buyer);
    if (settled.status !== 'settled') throw new Error(`contract ${id} is ${String(settled.status)} after a passing report, not settled`);
  }

  // Step latencies are recorded over the measured window only.
  const figures = await measuredLoop(s.name, { concurrency: s.inFlight, seconds: s.seconds, warmupSeconds: s.warmupSeconds }, flow, (p) => {
    recording = p === 'measure-start';
    phase(p);
  });
  const steps: Record<string, StepFigures> = {};
  for (const [step, values] of samples) steps[step] = summarize(values);
  return { ...figures, steps };
}
