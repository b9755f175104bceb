import { status } from '@grpc/grpc-js';
import { errorInfoFromGrpc, type Logger, type PromiseClient } from '@exchange/platform';
import type { identityV1 } from '@exchange/proto';
import { getAgentOutcome, identityUnavailable } from './identity-errors';

/** Identity refuses more ids per GetAgents call (identity.proto). */
export const AGENT_BATCH_MAX = 1000;
/** After an UNIMPLEMENTED GetAgents (an older identity): per-id GetAgent for this long, then try again. */
export const PER_ID_FALLBACK_MS = 60_000;

type Client = Pick<PromiseClient<typeof identityV1.IdentityServiceService>, 'getAgent' | 'getAgents'>;
/** An agent, null for an unknown one, or the error its caller gets. */
type Outcome = identityV1.Agent | null | Error;

interface Waiter {
  resolve(agent: identityV1.Agent | null): void;
  reject(err: Error): void;
}

/**
 * Identity's current answer for agent ids, one GetAgents per batch of concurrent lookups (split
 * into chunks of AGENT_BATCH_MAX ids). Freeze rule: a lookup is answered only by an RPC sent after
 * it was made, never by one already in flight (identity may have read that agent before a freeze
 * answered); that is all it requires. Sending one batch at a time is a separate, throughput
 * choice (a group commit): lookups made while a batch is out queue, and the next batch takes all
 * of them the moment it settles, rather than one RPC per arrival. With nothing in flight the
 * first lookup schedules the send with setImmediate, i.e. after the I/O callbacks of this
 * event-loop round, so every request read in the round shares the RPC (queueMicrotask would send
 * before the other requests' callbacks have run). Every lookup is answered: a chunk that fails
 * unexpectedly (not identity's answer) gives its callers 503 identity_unavailable.
 */
export class AgentBatcher {
  private queue = new Map<string, Waiter[]>();
  /** A batch is scheduled or in flight. */
  private busy = false;
  private perIdUntil = Number.NEGATIVE_INFINITY;
  private warnedFallback = false;

  constructor(
    private readonly client: Client,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The agent, null when identity does not know it; rejects with 503 identity_unavailable. */
  lookup(agentId: string): Promise<identityV1.Agent | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.queue.get(agentId);
      if (waiters) waiters.push({ resolve, reject });
      else this.queue.set(agentId, [{ resolve, reject }]);
      if (!this.busy) {
        this.busy = true;
        setImmediate(() => void this.send());
      }
    });
  }

  /** Never rejects: every waiter of the batch is answered, then the next batch goes (or none is busy). */
  private async send(): Promise<void> {
    const batch = this.queue;
    this.queue = new Map();
    // Each id answered once: a per-id lookup finishing after its chunk failed finds no waiters.
    const settle = (id: string, outcome: Outcome) => {
      const waiters = batch.get(id) ?? [];
      batch.delete(id);
      for (const w of waiters) {
        if (outcome instanceof Error) w.reject(outcome);
        else w.resolve(outcome);
      }
    };
    const ids = [...batch.keys()];
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += AGENT_BATCH_MAX) chunks.push(ids.slice(i, i + AGENT_BATCH_MAX));
    // answer() is async, so whatever fails in it (a bug, e.g. a throwing logger) reaches its chunk's
    // catch, which answers every id of the chunk: no waiter of the batch is left unanswered.
    const answered = chunks.map((chunk) =>
      this.answer(chunk, settle).catch((err: unknown) => {
        // Not identity's answer: its callers get 503 at once.
        for (const id of chunk) settle(id, identityUnavailable());
        this.logger.error({ err, agents: chunk.length }, 'identity batch lookup failed unexpectedly');
      }),
    );
    // allSettled (never rejects): the next batch waits for every chunk, even when one failed early.
    await Promise.allSettled(answered);
    if (this.queue.size > 0) void this.send(); // they queued while this batch was out: they waited already
    else this.busy = false;
  }

  private async answer(ids: string[], settle: (id: string, outcome: Outcome) => void): Promise<void> {
    if (this.now() >= this.perIdUntil) {
      try {
        const { agents } = await this.client.getAgents({ agentIds: ids });
        const found = new Map(agents.map((a) => [a.agentId, a]));
        for (const id of ids) settle(id, found.get(id) ?? null);
        return;
      } catch (err) {
        const info = errorInfoFromGrpc(err);
        if (info.grpcCode !== status.UNIMPLEMENTED) {
          this.logger.warn({ err: info.message, code: info.code, agents: ids.length }, 'identity batch lookup failed');
          for (const id of ids) settle(id, identityUnavailable());
          return;
        }
        // An identity older than GetAgents (rolling upgrade): this batch, and the next ones for a while, per id.
        if (!this.warnedFallback) {
          this.warnedFallback = true;
          this.logger.warn({ retry_after_ms: PER_ID_FALLBACK_MS }, 'identity has no GetAgents: looking agents up one by one');
        }
        this.perIdUntil = this.now() + PER_ID_FALLBACK_MS;
      }
    }
    await Promise.all(ids.map(async (id) => settle(id, await getAgentOutcome(this.client, id, this.logger))));
  }
}
