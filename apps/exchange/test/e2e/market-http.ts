import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { expectProblem, type HttpResult } from './http';
import { canonicalJson, RawAgent } from './raw-agent';
import { newKey, WalletHttp, walletPath, type CreditBalance } from './wallet-http';

// Raw-HTTP helpers for the market e2e suites (market-*.e2e.spec.ts): agents that sign their own
// requests, the steps of a contract's life as an agent or the operator would call them, the
// verification report signature built from common.md's rule alone (no SDK), balance and ledger
// checks. Amounts are compared as the decimal strings the API returns.

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface ReportBody {
  verifier_id: string;
  result_id: string;
  verdict: 'pass' | 'fail';
  score: number;
  checks: Check[];
}

/** base64 ed25519 by `seed` over canonicalize({verifier_id, result_id, verdict, score, checks}). */
export function signReport(seed: Buffer, report: ReportBody): string {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const payload = canonicalJson({ verifier_id: report.verifier_id, result_id: report.result_id, verdict: report.verdict, score: report.score, checks: report.checks });
  return sign(null, Buffer.from(payload, 'utf8'), key).toString('base64');
}

export const future = (ms: number): string => new Date(Date.now() + ms).toISOString();
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const money = (amount: string, currency = 'CREDIT') => ({ amount, currency });
export const SHA = (c: string) => `sha256:${c.repeat(64).slice(0, 64)}`;

export class MarketHttp extends WalletHttp {
  /** Faucet credits (≤ 200 per call; a fresh category each time so the daily cap never bites), not a deposit. */
  override async fund(agent: RawAgent, amount: string): Promise<void> {
    await this.expectStatus(this.as(agent, 'POST', walletPath(agent, '/faucet'), { amount, category: `mkt-${randomBytes(4).toString('hex')}`, idempotency_key: newKey('fund') }), 201);
  }

  /** Walks a list with `limit` until next_cursor is null, returning every id seen (in order). */
  async walk(path: string, idField: string, limit: number, as?: RawAgent): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const sep = path.includes('?') ? '&' : '?';
      const url = `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: any = await this.expectStatus(as ? this.as(as, 'GET', url) : this.op('GET', url), 200);
      expect(page.data.length).toBeLessThanOrEqual(limit);
      ids.push(...page.data.map((x: any) => x[idField]));
      cursor = page.next_cursor;
      if (!cursor) return ids;
    }
    throw new Error('pagination did not end');
  }

  async expectBalance(agent: RawAgent | string, expected: CreditBalance): Promise<void> {
    const id = typeof agent === 'string' ? agent : agent.agentId;
    const res = await this.op('GET', walletPath(id));
    if (res.status !== 200) throw new Error(`balance of ${id}: ${res.status} ${res.text}`);
    const row = (res.body.balances as Array<{ currency: string; available: string; held: string }>).find((b) => b.currency === 'CREDIT');
    const got = row ? { available: row.available, held: row.held } : { available: '0', held: '0' };
    expect({ agent: id, ...got }).toEqual({ agent: id, ...expected });
  }

  contractBody(overrides: Record<string, unknown> = {}) {
    return {
      title: 'Summarise 10 papers',
      description: 'Ten abstracts, one paragraph each.',
      tags: ['nlp', 'summaries'],
      budget: money('100'),
      deadline: future(DAY),
      acceptance_criteria: 'Each summary under 120 words.',
      ...overrides,
    };
  }

  createContract(buyer: RawAgent, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.as(buyer, 'POST', '/v1/contracts', this.contractBody(overrides), headers);
  }

  async openContract(buyer: RawAgent, overrides: Record<string, unknown> = {}): Promise<any> {
    return this.expectStatus(this.createContract(buyer, overrides), 201);
  }

  offer(seller: RawAgent, contractId: string, price = '100', extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.as(seller, 'POST', `/v1/contracts/${contractId}/offers`, { price: money(price), eta: future(12 * HOUR), terms: 'Delivered as Markdown.', ...extra }, headers);
  }

  async submitOffer(seller: RawAgent, contractId: string, price = '100', extra: Record<string, unknown> = {}): Promise<any> {
    return this.expectStatus(this.offer(seller, contractId, price, extra), 201);
  }

  award(contractId: string, offerId: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.op('POST', `/v1/contracts/${contractId}/award/${offerId}`, body, headers);
  }

  result(seller: RawAgent, contractId: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.as(seller, 'POST', `/v1/contracts/${contractId}/results`, { summary: 'Ten summaries attached.', artifact_refs: [SHA('a')], ...extra }, headers);
  }

  async submitResult(seller: RawAgent, contractId: string, extra: Record<string, unknown> = {}): Promise<any> {
    return this.expectStatus(this.result(seller, contractId, extra), 201);
  }

  /** The signed report body (signed by `signer`'s key unless `signingSeed` says otherwise). */
  report(verifierId: string, resultId: string, verdict: 'pass' | 'fail', signingSeed: Buffer, opts: { score?: number; checks?: Check[] } = {}) {
    const body: ReportBody = {
      verifier_id: verifierId,
      result_id: resultId,
      verdict,
      score: opts.score ?? (verdict === 'pass' ? 0.93 : 0.2),
      checks: opts.checks ?? [
        { name: 'word_count', ok: verdict === 'pass' },
        { name: 'coverage', ok: true, detail: 'all ten papers present' },
      ],
    };
    return { ...body, signature: signReport(signingSeed, body) };
  }

  verify(signer: RawAgent, contractId: string, resultId: string, verdict: 'pass' | 'fail', opts: { score?: number; checks?: Check[]; seed?: Buffer; headers?: Record<string, string> } = {}): Promise<HttpResult> {
    return this.as(signer, 'POST', `/v1/contracts/${contractId}/verify`, this.report(signer.agentId, resultId, verdict, opts.seed ?? signer.seed, opts), opts.headers);
  }

  openDispute(party: RawAgent, contractId: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.as(party, 'POST', `/v1/contracts/${contractId}/disputes`, { reason: 'Two summaries are missing.', evidence_refs: ['ref-1'], ...extra }, headers);
  }

  resolve(disputeId: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.op('POST', `/v1/disputes/${disputeId}/resolve`, { rationale: 'Evidence reviewed.', ...body }, headers);
  }

  async contract(contractId: string): Promise<any> {
    return this.expectStatus(this.op('GET', `/v1/contracts/${contractId}`), 200);
  }

  /**
   * A buyer funded with `funds`, a seller, an open contract (budget 100 unless overridden) and an
   * awarded offer at `price`: the starting point of most scenarios.
   */
  async awarded(opts: { funds?: string; price?: string; contract?: Record<string, unknown>; buyer?: RawAgent; seller?: RawAgent } = {}) {
    const buyer = opts.buyer ?? (await this.newAgent('buyer'));
    const seller = opts.seller ?? (await this.newAgent('seller'));
    if (opts.funds !== '0') await this.fund(buyer, opts.funds ?? '150');
    const contract = await this.openContract(buyer, opts.contract);
    // An eta after the deadline is refused (400 invalid_eta): short-deadline contracts get eta = deadline.
    const eta = new Date(Math.min(Date.now() + 12 * HOUR, Date.parse(contract.deadline))).toISOString();
    const offer = await this.submitOffer(seller, contract.contract_id, opts.price ?? '100', { eta });
    const awarded = await this.expectStatus(this.award(contract.contract_id, offer.offer_id), 200);
    return { buyer, seller, contract: awarded, offer, contractId: contract.contract_id as string };
  }

  /** awarded() then a submitted result: the contract is delivered. */
  async delivered(opts: Parameters<MarketHttp['awarded']>[0] = {}) {
    const base = await this.awarded(opts);
    const submitted = await this.submitResult(base.seller, base.contractId);
    return { ...base, result: submitted };
  }

  /** delivered() then the buyer's signed pass: the contract is settled. */
  async settled(opts: Parameters<MarketHttp['awarded']>[0] = {}) {
    const base = await this.delivered(opts);
    const report = await this.expectStatus(this.verify(base.buyer, base.contractId, base.result.result_id, 'pass'), 201);
    return { ...base, report };
  }
}

export { expectProblem, newKey, walletPath };
