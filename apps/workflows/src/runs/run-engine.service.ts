import { withTransaction } from '@exchange/db';
import type pg from 'pg';
import type { Run, TaskRecord } from '../domain/model';
import { MarketRefusal, type EngineHooks, type MarketPort } from '../domain/ports';
import { marketPort } from '../clients/market.client';
import { decideFailure, resultRefsOf, stageOutputs, type ResultFacts } from '../domain/run-progress';
import { cancelKey, postingKey, shardLabels, type ShardLabels } from '../domain/shard-contract';
import { mirrorContract, type ContractFacts } from '../domain/task-mirror';
import type { WorkflowsRuntime } from '../service/runtime';
import * as tasksRepo from '../tasks/tasks.repo';
import { MAX_INPUT_REFS } from './run-input';
import { failRun, newTask, startStage } from './run-transitions';
import { RunEventBatch } from './runs.events';
import * as runsRepo from './runs.repo';

// The run engine: every change of a run happens in one transaction that locks the run row first
// (concurrent market events of one run serialize) and records its task events last. Market calls
// (posting, cancelling) run after the commit, from the work the transaction returns; a crash in
// between leaves tasks in `posting` (or cancelled tasks with a live contract) that the recovery
// worker finishes with the same idempotency keys.

export type EngineDeps = Pick<WorkflowsRuntime, 'pool' | 'clock' | 'logger' | 'notify'> & { market: MarketPort; hooks?: EngineHooks };

/** Market calls to make once the transaction committed. */
export interface FollowUp {
  post: TaskRecord[];
  cancel: TaskRecord[];
}

const POST_CONCURRENCY = 8;

/** The engine on the runtime's market client (every area and worker builds its own: it keeps no state). */
export function engineOf(r: Pick<WorkflowsRuntime, 'pool' | 'clock' | 'logger' | 'notify' | 'market' | 'engineHooks'>): RunEngine {
  return new RunEngine({ pool: r.pool, clock: r.clock, logger: r.logger, notify: r.notify, market: marketPort(r.market), hooks: r.engineHooks });
}

export const noFollowUp = (): FollowUp => ({ post: [], cancel: [] });

export class RunEngine {
  constructor(private readonly deps: EngineDeps) {}

  /** Runs `fn` on the locked run in a transaction; its events are recorded last. Null when the run is unknown. */
  async inRun<T>(client: pg.PoolClient, runId: string, fn: (run: Run, batch: RunEventBatch) => Promise<T>): Promise<T | null> {
    const run = await runsRepo.lockRun(client, runId);
    if (run === null) return null;
    const batch = new RunEventBatch();
    const out = await fn(run, batch);
    await batch.flush(client);
    return out;
  }

  private tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.deps.pool, fn);
  }

  /** Inserts the tasks of stage `index` (posting) with stage.started (run already locked). */
  async beginStage(client: pg.PoolClient, run: Run, index: number, inputRefs: string[], batch: RunEventBatch, follow: FollowUp): Promise<void> {
    const { stage, tasks } = startStage(run, index, inputRefs, this.deps.clock());
    await runsRepo.saveStage(client, stage);
    await runsRepo.saveRun(client, run);
    for (const t of tasks) await tasksRepo.insertTask(client, t);
    batch.stage('stage.started', run, stage);
    follow.post.push(...tasks);
  }

  /** A pending run starts: running, its first stage started (run.started, stage.started). */
  async startRun(client: pg.PoolClient, run: Run, batch: RunEventBatch, follow: FollowUp): Promise<void> {
    if (run.status !== 'pending') return;
    run.status = 'running';
    run.updatedAt = this.deps.clock();
    batch.run('run.started', run);
    await this.beginStage(client, run, 0, [...run.inputRefs], batch, follow);
  }

  /** Starts pending runs a crash left behind (recovery); returns how many started. */
  async startPending(runId: string): Promise<FollowUp> {
    const follow = noFollowUp();
    await this.tx((client) => this.inRun(client, runId, (run, batch) => this.startRun(client, run, batch, follow)));
    this.deps.notify();
    return follow;
  }

  // ---- mirroring market contracts --------------------------------------------------------------

  /**
   * Applies one market contract event to the task its labels name (in the consumer's
   * transaction). Unknown runs or attempts, repeats and stale events change nothing.
   */
  async applyContract(client: pg.PoolClient, labels: ShardLabels, facts: ContractFacts, results: () => Promise<ResultFacts[]>): Promise<FollowUp> {
    const follow = noFollowUp();
    // Settlement reads the accepted result first: no gRPC call while the run row is locked. Only
    // for a run of ours: a labelled event of another exchange's run (a shared NATS stream, a
    // dropped database) must be acknowledged and ignored, not retried on a failing market read.
    const ours = facts.status === 'settled' && (await runsRepo.runExists(client, labels.workflowRunId));
    const refs = ours ? await results() : null;
    await this.inRun(client, labels.workflowRunId, async (run, batch) => {
      const stage = run.stages.find((s) => s.name === labels.stage);
      if (!stage) return;
      const task = await tasksRepo.taskOfAttempt(client, run.workflowRunId, stage.index, labels.shard, labels.attempt);
      if (!task) {
        this.deps.logger.warn({ workflow_run_id: run.workflowRunId, labels, contract_id: facts.contractId }, 'contract labels name no task; ignored');
        return;
      }
      const now = this.deps.clock();
      if (task.contractId === null) task.contractId = facts.contractId;
      if (task.status === 'cancelled') return this.cancelledTaskSaw(client, task, facts, follow, now);
      const change = mirrorContract(task, facts);
      if (change === null) {
        // A posting task may learn its contract id from a stale-looking event: keep it.
        if (task.status === 'posting') await tasksRepo.saveTask(client, { ...task, updatedAt: now });
        return;
      }
      const next: TaskRecord = {
        ...task,
        status: change.status,
        contractStatus: change.contractStatus,
        sellerId: change.sellerId,
        price: change.price,
        failureReason: change.failureReason ?? task.failureReason,
        updatedAt: now,
      };
      if (change.status === 'settled') {
        next.settledAt = now;
        next.resultRefs = resultRefsOf(refs ?? []);
      }
      await tasksRepo.saveTask(client, next);
      run.committed += change.committedDelta;
      run.spent += change.spentDelta;
      run.updatedAt = now;
      if (change.event) batch.task(change.event, run, next);
      if (change.status === 'failed') await this.onFailed(client, run, next, batch, follow);
      if (change.status === 'settled') await this.onSettled(client, run, next.stageIndex, batch, follow);
      await runsRepo.saveRun(client, run);
    });
    return follow;
  }

  /** A cancelled task's contract is still live in the market (the cancel was lost): cancel it again. */
  private async cancelledTaskSaw(client: pg.PoolClient, task: TaskRecord, facts: ContractFacts, follow: FollowUp, now: Date): Promise<void> {
    await tasksRepo.saveTask(client, { ...task, contractStatus: facts.status, updatedAt: now });
    if (facts.status === 'open' || facts.status === 'awarded') follow.cancel.push({ ...task, contractStatus: facts.status });
  }

  /** A failed attempt: re-post the shard (attempt + 1) or fail the run. */
  private async onFailed(client: pg.PoolClient, run: Run, task: TaskRecord, batch: RunEventBatch, follow: FollowUp): Promise<void> {
    if (run.status !== 'running') return;
    const now = this.deps.clock();
    const decision = decideFailure(task, run.maxShardAttempts);
    if (decision.kind === 'retry') {
      const stage = run.stages[task.stageIndex];
      const retry = newTask(run, stage, task.shard, decision.attempt, now);
      await tasksRepo.insertTask(client, retry);
      batch.task('task.retried', run, retry);
      follow.post.push(retry);
      return;
    }
    await this.failRunNow(client, run, decision.reason, batch, follow);
  }

  /** The run fails: its live tasks are cancelled (their contracts after the commit), run.failed. */
  private async failRunNow(client: pg.PoolClient, run: Run, reason: string, batch: RunEventBatch, follow: FollowUp): Promise<void> {
    const cancelled = failRun(run, reason, await tasksRepo.tasksOfRun(client, run.workflowRunId), this.deps.clock());
    for (const t of cancelled) {
      await tasksRepo.saveTask(client, t);
      batch.task('task.cancelled', run, t);
      if (t.contractId !== null) follow.cancel.push(t);
    }
    const stage = run.stages[run.currentStage];
    if (stage) await runsRepo.saveStage(client, stage);
    batch.run('run.failed', run);
  }

  /** A shard settled: the stage completes once every shard has; then the next stage or the run completes. */
  private async onSettled(client: pg.PoolClient, run: Run, stageIndex: number, batch: RunEventBatch, follow: FollowUp): Promise<void> {
    const now = this.deps.clock();
    const tasks = (await tasksRepo.tasksOfRun(client, run.workflowRunId)).filter((t) => t.stageIndex === stageIndex);
    const stage = run.stages[stageIndex];
    const settledShards = new Set(tasks.filter((t) => t.status === 'settled').map((t) => t.shard)).size;
    const outputs = stage.status === 'running' ? stageOutputs(stage.shards, tasks) : null;
    run.stages[stageIndex] = { ...stage, settledShards };
    if (outputs === null || run.status !== 'running') {
      await runsRepo.saveStage(client, run.stages[stageIndex]);
      return;
    }
    const done = { ...stage, settledShards, status: 'completed' as const, outputRefs: outputs, completedAt: now };
    run.stages[stageIndex] = done;
    await runsRepo.saveStage(client, done);
    batch.stage('stage.completed', run, done);
    if (stageIndex + 1 < run.stages.length) {
      if (outputs.length > MAX_INPUT_REFS) {
        // Every shard contract carries the stage's inputs, and the market takes at most 64.
        const reason = `stage ${run.stages[stageIndex + 1].name} would start with ${outputs.length} input refs; a shard contract carries at most ${MAX_INPUT_REFS}`;
        run.currentStage = stageIndex + 1;
        await this.failRunNow(client, run, reason, batch, follow);
        return;
      }
      await this.beginStage(client, run, stageIndex + 1, outputs, batch, follow);
      return;
    }
    run.status = 'completed';
    run.completedAt = now;
    run.updatedAt = now;
    batch.run('run.completed', run);
  }

  // ---- market calls after the commit -----------------------------------------------------------

  /** Posts tasks and sends cancels; failures are logged and left to the recovery worker. */
  async followUp(f: FollowUp): Promise<void> {
    this.deps.notify();
    // A stage's tasks are attempt 1 (retries come later): the crash point sees them before posting.
    const staged = f.post.filter((t) => t.attempt === 1);
    if (staged.length > 0) await this.deps.hooks?.afterStageCommitted?.(staged);
    let next = f;
    // Posting may refuse a task for good, whose retry is another task to post.
    for (let round = 0; round < 20 && (next.post.length > 0 || next.cancel.length > 0); round++) {
      const more = noFollowUp();
      await forEachLimited(next.post, POST_CONCURRENCY, async (t) => merge(more, await this.postTask(t)));
      await forEachLimited(next.cancel, POST_CONCURRENCY, (t) => this.cancelTask(t));
      next = more;
    }
  }

  /** CreateContract for one task (same key every time), then stores its contract (task.posted). */
  async postTask(task: TaskRecord): Promise<FollowUp> {
    const log = this.deps.logger.child({ task_id: task.taskId, workflow_run_id: task.workflowRunId });
    try {
      const run = await runsRepo.getRun(this.deps.pool, task.workflowRunId);
      if (run === null || run.status !== 'running') return noFollowUp();
      const stage = run.stages[task.stageIndex];
      const posted = await this.deps.market.postShardContract({
        idempotencyKey: postingKey({ workflowRunId: run.workflowRunId, stageIndex: stage.index, shard: task.shard, attempt: task.attempt }),
        buyerId: run.ownerAgentId,
        spec: stage.contract,
        // From the task's creation, not now: a re-post must send the very same request, or the
        // market answers idempotency_key_reused instead of the contract it already created.
        deadline: new Date(task.createdAt.getTime() + stage.contract.deadlineSeconds * 1000),
        labels: shardLabels({ workflowRunId: run.workflowRunId, stage: stage.name, shard: task.shard, attempt: task.attempt }),
        inputRefs: task.inputRefs,
      });
      await this.deps.hooks?.afterContractPosted?.(task);
      return await this.storePosted(task, posted.contractId);
    } catch (err) {
      if (err instanceof MarketRefusal) {
        log.warn({ code: err.code, err: err.message }, 'market refused a shard contract; the attempt fails');
        return this.refused(task, `market refused the contract: ${err.code}`);
      }
      log.warn({ err: (err as Error).message }, 'shard contract not posted yet; the recovery worker retries');
      return noFollowUp();
    }
  }

  private async storePosted(task: TaskRecord, contractId: string): Promise<FollowUp> {
    const follow = noFollowUp();
    await this.tx((client) =>
      this.inRun(client, task.workflowRunId, async (run, batch) => {
        const current = await tasksRepo.getTask(client, task.taskId);
        if (current === null) return;
        const now = this.deps.clock();
        if (current.status === 'posting') {
          const open: TaskRecord = { ...current, status: 'open', contractId, contractStatus: 'open', updatedAt: now };
          await tasksRepo.saveTask(client, open);
          batch.task('task.posted', run, open);
        } else if (current.contractId === null) {
          // The run failed while this contract was being posted: it is cancelled right away.
          const seen: TaskRecord = { ...current, contractId, contractStatus: 'open', updatedAt: now };
          await tasksRepo.saveTask(client, seen);
          if (current.status === 'cancelled') follow.cancel.push(seen);
        }
      }),
    );
    this.deps.notify();
    return follow;
  }

  /** The market refused the contract for good: the attempt fails (retry or run failure). */
  private async refused(task: TaskRecord, reason: string): Promise<FollowUp> {
    const follow = noFollowUp();
    await this.tx((client) =>
      this.inRun(client, task.workflowRunId, async (run, batch) => {
        const current = await tasksRepo.getTask(client, task.taskId);
        if (current === null || current.status !== 'posting') return;
        const now = this.deps.clock();
        const failed: TaskRecord = { ...current, status: 'failed', failureReason: reason, updatedAt: now };
        await tasksRepo.saveTask(client, failed);
        batch.task('task.failed', run, failed);
        await this.onFailed(client, run, failed, batch, follow);
        run.updatedAt = now;
        await runsRepo.saveRun(client, run);
      }),
    );
    this.deps.notify();
    return follow;
  }

  /** CancelContract for a cancelled task's contract; the market's answer is mirrored. */
  async cancelTask(task: TaskRecord): Promise<void> {
    if (task.contractId === null) return;
    try {
      const status = await this.deps.market.cancelContract(task.contractId, cancelKey(task.taskId), 'workflow run failed');
      await this.tx(async (client) => {
        const current = await tasksRepo.getTask(client, task.taskId);
        if (current !== null) await tasksRepo.saveTask(client, { ...current, contractStatus: status, updatedAt: this.deps.clock() });
      });
    } catch (err) {
      // A contract that moved on (delivered, expired…) cannot be cancelled: its own events tell
      // what it became (and stop the recovery worker's retries).
      if (err instanceof MarketRefusal) {
        this.deps.logger.info({ contract_id: task.contractId, code: err.code }, 'shard contract not cancelled: the market refused');
        return;
      }
      this.deps.logger.warn({ contract_id: task.contractId, err: (err as Error).message }, 'shard contract cancel failed; the recovery worker retries');
    }
  }
}

function merge(into: FollowUp, more: FollowUp): void {
  into.post.push(...more.post);
  into.cancel.push(...more.cancel);
}

async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
