import { MarketHttp, money, SHA } from './market-http';
import type { RawAgent } from './raw-agent';
import { eventually } from './wallet-http';

// Raw-HTTP helpers for the workflows e2e suites: a run's body, its shard contracts as the run
// lists them, a shard contract driven through the market as sellers and the operator call it
// (offer, award, result; `auto` verification settles on delivery), waiting for the run's state
// (the engine reacts to market events asynchronously) and reading a subscription.

export interface StageInput {
  name: string;
  shards: number;
  budget?: string;
  mode?: 'auto' | 'buyer' | 'verifier';
}

export const RUNS = '/v1/workflows/runs';
export const SUBSCRIPTIONS = '/v1/workflows/tasks/subscriptions';

export class WorkflowsHttp extends MarketHttp {
  runBody(stages: StageInput[], extra: Record<string, unknown> = {}) {
    return {
      template: 'e2e-pipeline',
      stages: stages.map((s) => ({
        name: s.name,
        shards: s.shards,
        contract: {
          title: `Stage ${s.name}: one shard`,
          tags: ['e2e'],
          budget: money(s.budget ?? '5'),
          verification_mode: s.mode ?? 'auto',
          acceptance_criteria: 'Any delivery',
          deadline_seconds: 3600,
        },
      })),
      input_refs: ['doc:input-1'],
      ...extra,
    };
  }

  async createRun(owner: RawAgent, stages: StageInput[], extra: Record<string, unknown> = {}): Promise<any> {
    return this.expectStatus(this.as(owner, 'POST', RUNS, this.runBody(stages, extra)), 201);
  }

  run(owner: RawAgent, runId: string): Promise<any> {
    return this.expectStatus(this.as(owner, 'GET', `${RUNS}/${runId}`), 200);
  }

  /** Waits until the run satisfies `done` (the engine moves it from market events). */
  async waitRun(owner: RawAgent, runId: string, done: (run: any) => boolean): Promise<any> {
    return eventually(() => this.run(owner, runId), done, 160, 250);
  }

  /** The stage's shard contracts once every shard has an open contract of `attempt`, in shard order. */
  async openShardContracts(owner: RawAgent, runId: string, stage: string, shards: number, attempt = 1): Promise<any[]> {
    const read = async () => (await this.expectStatus(this.as(owner, 'GET', `${RUNS}/${runId}/contracts?stage=${stage}&status=open`), 200)).data as any[];
    const open = await eventually(read, (rows) => rows.filter((c) => c.attempt === attempt).length === shards, 160, 250);
    return open.filter((c) => c.attempt === attempt).sort((a, b) => a.shard - b.shard);
  }

  /** A seller's offer on a shard contract, awarded by the operator: the price is held on the owner's wallet. */
  async awardShard(contractId: string, seller: RawAgent, price: string): Promise<any> {
    const contract = await this.contract(contractId);
    const eta = new Date(Math.min(Date.now() + 600_000, Date.parse(contract.deadline))).toISOString();
    const offer = await this.submitOffer(seller, contractId, price, { eta });
    return this.expectStatus(this.award(contractId, offer.offer_id), 200);
  }

  /** Awarded, then delivered with one artifact ref per shard (`auto`: the delivery settles the contract). */
  async settleShard(contractId: string, seller: RawAgent, price: string, artifactRef: string): Promise<any> {
    await this.awardShard(contractId, seller, price);
    return this.submitResult(seller, contractId, { artifact_refs: [artifactRef] });
  }

  async subscribe(agent: RawAgent, body: Record<string, unknown>): Promise<any> {
    return this.expectStatus(this.as(agent, 'POST', SUBSCRIPTIONS, body), 201);
  }

  async events(agent: RawAgent, subscriptionId: string, limit = 200): Promise<any> {
    return this.expectStatus(this.as(agent, 'GET', `${SUBSCRIPTIONS}/${subscriptionId}/events?limit=${limit}`), 200);
  }

  async consume(agent: RawAgent, subscriptionId: string, body: Record<string, unknown>): Promise<any> {
    return this.expectStatus(this.as(agent, 'POST', `${SUBSCRIPTIONS}/${subscriptionId}/events/consume`, body), 200);
  }
}

/** A distinct artifact ref per (stage, shard), as a seller's delivered result would carry. */
export const shardArtifact = (stage: number, shard: number): string => SHA(`${stage}${shard}`);
