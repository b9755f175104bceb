/**
 * The reports/outcomes tests' harness and event builders: telemetry in process on its own
 * database with a fixed clock, a unary client, and envelopes built from the proto event messages
 * (their JSON form, as producers publish them), recorded through ingest as the consumer would.
 */
import pg from 'pg';
import type { EventEnvelope } from '@exchange/events';
import { createServiceClient, errorInfoFromGrpc, newId, type PromiseClient } from '@exchange/platform';
import {
  commerceV1,
  commerceV1Events,
  commerceV1Wire,
  identityV1Events,
  marketV1Events,
  marketV1IntegrityWire,
  marketV1Wire,
  telemetryV1,
  workflowsV1Events,
  workflowsV1Wire,
} from '@exchange/proto';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { readTelemetryConfig, startTelemetry, type TelemetryHandle } from '../src/index';
import { ingestEvents } from '../src/ingest/event-store.repo';

export type TelemetryClient = PromiseClient<typeof telemetryV1.TelemetryServiceService>;

export const OPERATOR: telemetryV1.Actor = { agentId: '', operator: true };
export const agentActor = (agentId: string): telemetryV1.Actor => ({ agentId, operator: false });

export interface ReportsHarness {
  client: TelemetryClient;
  sql: pg.Pool;
  seed(events: readonly EventEnvelope[]): Promise<void>;
  stop(): Promise<void>;
}

/** Telemetry whose clock stands still at `now`. */
export async function startReportsHarness(name: string, now: Date): Promise<ReportsHarness> {
  const db: TestDatabase = await createTestDatabase(name);
  let telemetry: TelemetryHandle;
  try {
    const config = readTelemetryConfig({ DATABASE_URL: db.url, GRPC_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    telemetry = await startTelemetry(config, { logger: testLogger, clock: () => now });
  } catch (err) {
    await db.drop();
    throw err;
  }
  const client = createServiceClient(telemetryV1.TelemetryServiceService, `127.0.0.1:${telemetry.grpcPort}`);
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  return {
    client,
    sql,
    // In time order, as the consumer would have seen them.
    seed: async (events) => {
      await ingestEvents(sql, [...events].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at)));
    },
    stop: async () => {
      await telemetry.stop();
      await sql.end();
      await db.drop();
    },
  };
}

/** The problem code of a failed call. */
export async function failureCode(call: Promise<unknown>): Promise<{ code: string; details: unknown }> {
  try {
    await call;
  } catch (err) {
    const info = errorInfoFromGrpc(err);
    return { code: info.code, details: info.details };
  }
  throw new Error('the call succeeded');
}

function envelope(type: string, subjectId: string, at: string, data: unknown): EventEnvelope {
  return { id: newId('evt'), type, source: type.split('.')[1], subject_id: subjectId, occurred_at: new Date(at).toISOString(), actor: null, data, trace_id: null };
}

export interface ContractSpec {
  id: string;
  buyer: string;
  private?: boolean;
  sandbox?: boolean;
  tags: string[];
  currency: string;
  budget: string;
  seller?: string;
  price?: string;
  createdAt: string;
}

const STATUS_AFTER: Record<string, string | null> = {
  created: 'open', awarded: 'awarded', delivered: 'delivered', settled: 'settled', disputed: 'disputed',
  refunded: 'refunded', split: 'split', cancelled: 'cancelled', expired: 'expired', buyer_alias_updated: null,
};

/** A contract's events: each step's verb at its time, carrying the contract as it was then. */
export function contractLifecycle(c: ContractSpec, steps: Array<[verb: string, at: string]>): EventEnvelope[] {
  let status = 'open';
  let awardedAt: Date | undefined;
  let settledAt: Date | undefined;
  return steps.map(([verb, at]) => {
    status = STATUS_AFTER[verb] ?? status;
    if (verb === 'awarded') awardedAt = new Date(at);
    if (verb === 'settled') settledAt = new Date(at);
    const awarded = awardedAt !== undefined;
    const contract = {
      contractId: c.id,
      buyerId: c.private ? '' : c.buyer,
      title: `contract ${c.id.slice(-4)}`,
      tags: c.tags,
      budget: { amount: c.budget, currency: c.currency },
      status: marketV1Wire.contractStatus.fromWire(status),
      sellerId: awarded ? c.seller : undefined,
      price: awarded && c.price ? { amount: c.price, currency: c.currency } : undefined,
      createdAt: new Date(c.createdAt),
      updatedAt: new Date(at),
      awardedAt,
      settledAt,
      buyerPrivate: c.private ?? false,
      buyerAlias: c.private ? 'anon:abcdefghijkl' : undefined,
      sandbox: c.sandbox ?? false,
    };
    const data = marketV1Events.ContractChanged.toJSON(
      marketV1Events.ContractChanged.fromPartial({ contract, restricted: c.private ? { buyerId: c.buyer } : undefined }),
    );
    return envelope(`exchange.market.contract.${verb}`, c.id, at, data);
  });
}

export function dispute(contractId: string, verb: 'opened' | 'resolved', at: string, openedBy: string, privateBuyer?: string): EventEnvelope {
  const data = marketV1Events.DisputeChanged.toJSON(
    marketV1Events.DisputeChanged.fromPartial({
      dispute: { disputeId: `dsp_${contractId.slice(4)}`, contractId, openedBy: openedBy === privateBuyer ? '' : openedBy, reason: 'late', createdAt: new Date(at), updatedAt: new Date(at) },
      restricted: privateBuyer ? { buyerId: privateBuyer } : undefined,
    }),
  );
  return envelope(`exchange.market.dispute.${verb}`, `dsp_${contractId.slice(4)}`, at, data);
}

export function integrity(action: 'state_changed' | 'kill_switch_set' | 'erroneous_clear', at: string, state: 'normal' | 'elevated' | 'restricted' | 'halted', subject: string = state): EventEnvelope {
  const data = marketV1Events.IntegrityChanged.toJSON(
    marketV1Events.IntegrityChanged.fromPartial({
      audit: { auditId: newId('aud'), action, operator: 'operator:ops', reason: 'drill', subject, detailsJson: '{}', createdAt: new Date(at) },
      integrity: { state: marketV1IntegrityWire.integrityState.fromWire(state), since: new Date(at), killSwitches: [] },
    }),
  );
  return envelope(`exchange.market.integrity.${action}`, subject, at, data);
}

export function resaleDecided(contractId: string, at: string): EventEnvelope {
  const data = marketV1Events.ResaleReviewChanged.toJSON(
    marketV1Events.ResaleReviewChanged.fromPartial({ review: { contractId, decisionRef: 'ref', createdAt: new Date(at), updatedAt: new Date(at) } }),
  );
  return envelope('exchange.market.resale_review.decided', contractId, at, data);
}

export function agentEvent(verb: 'registered' | 'frozen' | 'unfrozen', agentId: string, at: string): EventEnvelope {
  const agent = { agentId, createdAt: new Date(at) };
  const data =
    verb === 'registered'
      ? identityV1Events.AgentRegistered.toJSON(identityV1Events.AgentRegistered.fromPartial({ agent }))
      : identityV1Events.AgentFrozen.toJSON(identityV1Events.AgentFrozen.fromPartial({ agent, reason: 'review' }));
  return envelope(`exchange.identity.agent.${verb}`, agentId, at, data);
}

export function thread(threadId: string, contractId: string | undefined, createdBy: string, at: string, privateBuyer?: string): EventEnvelope {
  const data = marketV1Events.ThreadCreated.toJSON(
    marketV1Events.ThreadCreated.fromPartial({
      thread: { threadId, title: 'coordination', tags: ['data'], createdBy: createdBy === privateBuyer ? '' : createdBy, contractId, createdAt: new Date(at), updatedAt: new Date(at) },
      restricted: privateBuyer ? { buyerId: privateBuyer } : undefined,
    }),
  );
  return envelope('exchange.market.thread.created', threadId, at, data);
}

export function post(threadId: string, author: string, at: string, privateBuyer?: string): EventEnvelope {
  const postId = newId('pst');
  const data = marketV1Events.PostCreated.toJSON(
    marketV1Events.PostCreated.fromPartial({
      post: { postId, threadId, author: author === privateBuyer ? '' : author, body: 'hello', createdAt: new Date(at) },
      restricted: privateBuyer ? { buyerId: privateBuyer } : undefined,
    }),
  );
  return envelope('exchange.market.post.created', postId, at, data);
}

export interface RunSpec {
  id: string;
  owner: string;
  createdAt: string;
  /** Each stage's start. */
  stageStarts: string[];
}

export function runEvent(r: RunSpec, verb: 'started' | 'completed' | 'failed', at: string): EventEnvelope {
  const status = verb === 'started' ? 'running' : verb;
  const data = workflowsV1Events.RunChanged.toJSON(
    workflowsV1Events.RunChanged.fromPartial({
      run: {
        workflowRunId: r.id,
        template: 'pipeline',
        ownerAgentId: r.owner,
        status: workflowsV1Wire.runStatus.fromWire(status),
        stages: r.stageStarts.map((s, index) => ({ name: `stage${index}`, index, shards: 1, startedAt: new Date(s) })),
        createdAt: new Date(r.createdAt),
        updatedAt: new Date(at),
        completedAt: verb === 'completed' ? new Date(at) : undefined,
      },
    }),
  );
  return envelope(`exchange.workflows.run.${verb}`, r.id, at, data);
}

export function stageEvent(runId: string, verb: 'started' | 'completed', at: string): EventEnvelope {
  const data = workflowsV1Events.StageChanged.toJSON(workflowsV1Events.StageChanged.fromPartial({ workflowRunId: runId, stage: { name: 'stage0', index: 0, shards: 2 } }));
  return envelope(`exchange.workflows.stage.${verb}`, runId, at, data);
}

export function taskEvent(runId: string, verb: 'posted' | 'settled' | 'retried', at: string, shard: number): EventEnvelope {
  const taskId = `tsk_${runId.slice(4, 30)}${shard}`;
  const data = workflowsV1Events.TaskChanged.toJSON(
    workflowsV1Events.TaskChanged.fromPartial({ task: { taskId, workflowRunId: runId, stage: 'stage0', shard, attempt: 1, createdAt: new Date(at), updatedAt: new Date(at) } }),
  );
  return envelope(`exchange.workflows.task.${verb}`, taskId, at, data);
}

export interface CheckoutSpec {
  id: string;
  buyer: string;
  merchant: string;
  currency: string;
  total: string;
  createdAt: string;
  origin?: { contractId?: string; workflowRunId?: string };
}

export function checkoutEvent(k: CheckoutSpec, verb: 'created' | 'completed' | 'canceled' | 'payment_failed', at: string): EventEnvelope {
  const status = verb === 'created' ? 'incomplete' : verb === 'payment_failed' ? 'ready_for_complete' : verb;
  const session = commerceV1.CheckoutSession.fromPartial({
    commerceSessionId: k.id,
    buyerAgentId: k.buyer,
    merchantDomain: k.merchant,
    status: commerceV1Wire.checkoutStatus.fromWire(status),
    currency: k.currency,
    total: k.total,
    listTotal: k.total,
    savings: '0',
    createdAt: new Date(k.createdAt),
    updatedAt: new Date(at),
    origin: k.origin,
  });
  return envelope(`exchange.commerce.checkout.${verb}`, k.id, at, commerceV1Events.CheckoutChanged.toJSON({ session }));
}

export function purchaseEvent(k: CheckoutSpec, at: string): EventEnvelope {
  const dealId = newId('deal');
  const purchase = commerceV1.Purchase.fromPartial({
    dealId,
    commerceSessionId: k.id,
    buyerAgentId: k.buyer,
    merchantDomain: k.merchant,
    amount: k.total,
    currency: k.currency,
    receiptId: newId('rcpt'),
    completedAt: new Date(at),
    origin: k.origin,
  });
  return envelope('exchange.commerce.purchase.recorded', dealId, at, commerceV1Events.PurchaseRecorded.toJSON({ purchase }));
}
