import { canonicalize, sha256Hex } from '@exchange/crypto';
import { isUniqueViolation, withTransaction } from '@exchange/db';
import { errors, formatAmount, newId, resolveLimit } from '@exchange/platform';
import { listOwner, readable, requireCreator } from '../domain/access';
import type { Actor, ContractStatus, Page, Run, RunStatus, TaskRecord } from '../domain/model';
import type { WalletPort } from '../domain/ports';
import type { WorkflowsRuntime } from '../service/runtime';
import * as tasksRepo from '../tasks/tasks.repo';
import { validateCreateRun, type CreateRunInput, type RunDraft } from './run-input';
import { noFollowUp, type RunEngine } from './run-engine.service';
import { RunEventBatch } from './runs.events';
import * as runsRepo from './runs.repo';

export type RunsDeps = Pick<WorkflowsRuntime, 'pool' | 'agents' | 'clock'> & { wallet: WalletPort; engine: RunEngine };

export interface PageRequest {
  limit: number;
  cursor: string;
}

const PRINTABLE_KEY = /^[\x20-\x7e]{1,255}$/;

/** Runs: create (budget check, idempotency, first stage posted), read and list. */
export class RunsService {
  constructor(private readonly deps: RunsDeps) {}

  /**
   * Checks the caller (403), the request (400s), the owner (404 / 403 agent_frozen) and the owner's
   * available balance against the run's budget (409 insufficient_funds), then stores the run and
   * starts its first stage in one transaction; its shard contracts are posted before answering
   * (a posting failure is left to the recovery worker). With an idempotency key (scope: the
   * caller), the same request answers the stored run (`replayed`), another one 422
   * idempotency_key_reused.
   */
  async createRun(input: CreateRunInput, actor: Actor): Promise<{ run: Run; replayed: boolean }> {
    const owner = input.ownerAgentId === '' && !actor.operator && actor.agentId !== null ? actor.agentId : input.ownerAgentId;
    requireCreator(owner, actor);
    const draft = validateCreateRun({ ...input, ownerAgentId: owner });
    const key = idempotencyKeyOf(input.idempotencyKey);
    const scope = actor.operator ? 'operator' : `agent:${actor.agentId}`;
    const hash = sha256Hex(canonicalize(fingerprint(draft)));
    if (key !== undefined) {
      const earlier = await runsRepo.findRunByKey(this.deps.pool, scope, key);
      if (earlier !== null) return this.replay(earlier, hash);
    }
    await this.deps.agents.active(draft.ownerAgentId);
    const available = await this.deps.wallet.available(draft.ownerAgentId, draft.currency);
    if (available < draft.budget) {
      throw errors.failedPrecondition('insufficient_funds', `the run needs ${formatAmount(draft.budget)} ${draft.currency} available; the owner has ${formatAmount(available)}`, {
        currency: draft.currency,
        available: formatAmount(available),
        required: formatAmount(draft.budget),
      });
    }
    const run = newRun(draft, this.deps.clock());
    const follow = noFollowUp();
    try {
      await withTransaction(this.deps.pool, async (client) => {
        await runsRepo.insertRun(client, run, key === undefined ? null : { scope, key, requestHash: hash });
        await this.deps.engine.inRun(client, run.workflowRunId, (locked, batch: RunEventBatch) => this.deps.engine.startRun(client, locked, batch, follow));
      });
    } catch (err) {
      // A concurrent request with the same key committed first: answer as its replay.
      if (key !== undefined && isUniqueViolation(err)) {
        const earlier = await runsRepo.findRunByKey(this.deps.pool, scope, key);
        if (earlier !== null) return this.replay(earlier, hash);
      }
      throw err;
    }
    await this.deps.engine.followUp(follow);
    return { run: (await runsRepo.getRun(this.deps.pool, run.workflowRunId)) ?? run, replayed: false };
  }

  private async replay(earlier: { workflowRunId: string; requestHash: string }, hash: string): Promise<{ run: Run; replayed: boolean }> {
    if (earlier.requestHash !== hash) throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
    const run = await runsRepo.getRun(this.deps.pool, earlier.workflowRunId);
    if (run === null) throw new Error(`idempotency key names missing run ${earlier.workflowRunId}`);
    return { run, replayed: true };
  }

  async getRun(workflowRunId: string, actor: Actor): Promise<Run> {
    return readable(await runsRepo.getRun(this.deps.pool, workflowRunId), workflowRunId, actor);
  }

  async listRuns(q: { template?: string; ownerAgentId?: string; status?: RunStatus; page?: PageRequest }, actor: Actor): Promise<Page<Run>> {
    const ownerAgentId = listOwner(actor, q.ownerAgentId);
    return runsRepo.listRuns(this.deps.pool, { template: q.template, ownerAgentId, status: q.status }, pageOf(q.page));
  }

  /** The run's tasks that have a contract (one per posted attempt), newest first. */
  async listRunContracts(
    workflowRunId: string,
    q: { stage?: string; shard?: number; status?: ContractStatus; page?: PageRequest },
    actor: Actor,
  ): Promise<Page<TaskRecord>> {
    await this.getRun(workflowRunId, actor);
    return tasksRepo.listTasks(this.deps.pool, { workflowRunId, stage: q.stage, shard: q.shard, contractStatus: q.status, withContract: true }, pageOf(q.page));
  }
}

export function pageOf(page: PageRequest | undefined): { limit: number; cursor?: string } {
  return { limit: resolveLimit(page?.limit), cursor: page?.cursor || undefined };
}

function idempotencyKeyOf(value: string): string | undefined {
  if (value === '') return undefined;
  if (!PRINTABLE_KEY.test(value)) throw errors.invalidArgument('invalid_idempotency_key', 'idempotency_key must be 1-255 printable ASCII characters');
  return value;
}

function newRun(d: RunDraft, now: Date): Run {
  const workflowRunId = newId('run');
  return {
    workflowRunId,
    template: d.template,
    ownerAgentId: d.ownerAgentId,
    status: 'pending',
    inputRefs: d.inputRefs,
    currentStage: 0,
    maxShardAttempts: d.maxShardAttempts,
    currency: d.currency,
    budget: d.budget,
    spent: 0n,
    committed: 0n,
    failureReason: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    stages: d.stages.map((s, index) => ({
      workflowRunId,
      index,
      name: s.name,
      shards: s.shards,
      contract: s.contract,
      status: 'pending',
      settledShards: 0,
      inputRefs: [],
      outputRefs: [],
      startedAt: null,
      completedAt: null,
    })),
  };
}

/** What makes two CreateRun requests "the same": the validated run, amounts as strings. */
function fingerprint(d: RunDraft): unknown {
  return {
    owner_agent_id: d.ownerAgentId,
    template: d.template,
    input_refs: d.inputRefs,
    max_shard_attempts: d.maxShardAttempts,
    stages: d.stages.map((s) => ({ name: s.name, shards: s.shards, contract: { ...s.contract, budget: s.contract.budget.toString(), verifierId: s.contract.verifierId ?? '' } })),
  };
}
