import { canonicalize, sha256Hex } from '@exchange/crypto';
import { errors, newId } from '@exchange/platform';
import { withTransaction } from '@exchange/db';
import type { CommerceRuntime } from '../service/runtime';
import { idempotencyKey } from '../mandates/mandate-input';
import type { IntentActor, IntentRecord } from './intent.model';
import { requireIntentCreator, validateCreateIntent, type CreateIntentInput } from './intent-input';
import * as keys from './intent-idempotency.repo';
import { getIntent, insertIntent } from './intents.repo';
import { enqueueIntentCreated } from './intents.events';

export type IntentsDeps = Pick<CommerceRuntime, 'pool' | 'agents' | 'clock' | 'notify'>;

const actorName = (actor: IntentActor) => (actor.operator ? 'operator' : `agent:${actor.agentId}`);

/** Intents: what an agent set out to buy; checkouts naming one are held to it (checkout/intent-check.service.ts). */
export class IntentsService {
  constructor(private readonly deps: IntentsDeps) {}

  /**
   * Checks the caller (403), the request (400s) and the agent (404/403 agent_frozen), then stores
   * the intent with its `created` event. With an idempotency key: the same request again answers
   * the stored intent (`replayed`), another request under that key 422 idempotency_key_reused.
   */
  async create(input: CreateIntentInput & { idempotencyKey: string }, actor: IntentActor): Promise<{ intent: IntentRecord; replayed: boolean }> {
    requireIntentCreator(input.agentId, actor);
    const key = idempotencyKey(input.idempotencyKey);
    const hash = sha256Hex(canonicalize(fingerprint(input)));
    if (key !== undefined) {
      const earlier = await keys.findCreateIntentKey(this.deps.pool, input.agentId, key);
      if (earlier !== null) return this.replay(earlier, hash);
    }
    const now = this.deps.clock();
    const draft = validateCreateIntent(input, now);
    await this.deps.agents.active(draft.agentId);
    const intent: IntentRecord = { ...draft, intentId: newId('int'), createdAt: now };
    const concurrent = await withTransaction(this.deps.pool, async (client) => {
      if (key !== undefined) {
        const hit = await keys.claimCreateIntentKey(client, draft.agentId, key, hash, intent.intentId, now);
        if (hit !== null) return hit;
      }
      await insertIntent(client, intent);
      await enqueueIntentCreated(client, intent, actorName(actor));
      return null;
    });
    if (concurrent !== null) return this.replay(concurrent, hash);
    this.deps.notify();
    return { intent, replayed: false };
  }

  private async replay(hit: keys.IntentKeyHit, hash: string): Promise<{ intent: IntentRecord; replayed: boolean }> {
    if (hit.requestHash !== hash) throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
    const intent = await getIntent(this.deps.pool, hit.intentId);
    if (intent === null) throw new Error(`idempotency record names missing intent ${hit.intentId}`);
    return { intent, replayed: true };
  }
}

/** What makes two create requests "the same" for idempotency: every field but the key. */
function fingerprint(input: CreateIntentInput): unknown {
  return {
    rpc: keys.CREATE_INTENT_RPC,
    agent_id: input.agentId,
    description: input.description,
    merchants: input.merchants,
    skus: input.skus,
    budget: input.budget ?? null,
    requires_refundability: input.requiresRefundability === true,
    expires_at: input.expiresAt === undefined || Number.isNaN(input.expiresAt.getTime()) ? null : input.expiresAt.toISOString(),
  };
}
