import { errors, isDomainError, type DomainError } from '@exchange/platform';
import type { KillSwitch } from '../domain/controls';
import type { ApplyOutcome, IdempotencyClaim, LedgerWriter, MutationPlan } from '../domain/ledger.ports';
import { fromStoredError, toStoredError, walletErrors } from '../domain/wallet.errors';

/** How a mutation's result is stored with its key and read back for a replay (each area's service declares its codecs; the mappers supply them: grpc/codec.ts). */
export interface ResponseCodec<R> {
  toJSON(message: R): unknown;
  fromJSON(json: unknown): R;
}

export interface Planned<R> {
  plan: Omit<MutationPlan, 'idempotency' | 'error' | 'control' | 'response'>;
  /** The response if the plan commits. */
  result: R;
  /** The status the guarded entity should move to (names it in invalid_state). */
  guardWanted?: string;
  /** The error to record when the store finds a debited agent balance too low. */
  onInsufficient?: (available: bigint) => DomainError;
}

/** A business outcome decided from the current state: recorded with the key, then thrown. */
export interface Refused {
  refused: DomainError;
  now: Date;
}

export type PlanStep<R> = Planned<R> | Refused;

/** Plans are rebuilt when a daily counter moved between the read and the commit (never under its lock). */
const MAX_PLANS = 5;

/**
 * Runs one mutation: plan it from the current state, let the store commit it or say why not,
 * and turn the outcome into the response or the error (README.md "Idempotency").
 * - replayed: same fingerprint → the stored response (idempotentReplayed) or the stored error;
 *   another fingerprint → idempotency_key_reused.
 * - a refusal that depends on state (invalid_state, insufficient_funds, caps, limits) is stored
 *   with the key first, so a retry with the same key gets the same answer.
 * - blocked by read-only or a kill switch: UNAVAILABLE, nothing stored.
 */
export async function execute<R extends { idempotentReplayed: boolean }>(
  store: LedgerWriter,
  opts: {
    idempotency?: IdempotencyClaim;
    control?: KillSwitch;
    codec: ResponseCodec<R>;
    /** Decide under this daily counter's lock; `plan` then receives its value. */
    counter?: { key: string; day: string };
    plan: (counterValue: bigint) => Promise<PlanStep<R>>;
  },
): Promise<R> {
  if (opts.counter) return store.withCounter(opts.counter.key, opts.counter.day, (used, tx) => run(tx, opts, used));
  return run(store, opts, 0n);
}

async function run<R extends { idempotentReplayed: boolean }>(
  writer: Pick<LedgerWriter, 'apply'>,
  opts: {
    idempotency?: IdempotencyClaim;
    control?: KillSwitch;
    codec: ResponseCodec<R>;
    plan: (counterValue: bigint) => Promise<PlanStep<R>>;
  },
  counterValue: bigint,
): Promise<R> {
  const { idempotency, control, codec } = opts;

  const replay = (outcome: Extract<ApplyOutcome, { kind: 'replayed' }>): R => {
    if (idempotency && outcome.fingerprint !== idempotency.fingerprint) throw walletErrors.idempotencyKeyReused();
    if (outcome.error) throw fromStoredError(outcome.error).asReplay();
    return { ...codec.fromJSON(outcome.response), idempotentReplayed: true };
  };

  const record = async (refusal: DomainError, now: Date): Promise<R> => {
    if (!idempotency) throw refusal;
    const outcome = await writer.apply({ now, control, idempotency, error: toStoredError(refusal) });
    if (outcome.kind === 'replayed') return replay(outcome);
    if (outcome.kind === 'blocked') throw blockedError(outcome.reason);
    throw refusal;
  };

  for (let attempt = 0; attempt < MAX_PLANS; attempt++) {
    const step = await opts.plan(counterValue);
    if ('refused' in step) return record(step.refused, step.now);

    const plan: MutationPlan = {
      ...step.plan,
      control,
      idempotency,
      response: idempotency ? codec.toJSON(step.result) : undefined,
    };
    const outcome = await writer.apply(plan);
    switch (outcome.kind) {
      case 'applied':
        return step.result;
      case 'replayed':
        return replay(outcome);
      case 'blocked':
        throw blockedError(outcome.reason);
      case 'guard_failed':
        return record(errors.invalidState(plan.guard?.entity ?? 'entity', outcome.current ?? 'missing', step.guardWanted ?? 'changed'), plan.now);
      case 'insufficient':
        return record(
          step.onInsufficient?.(outcome.balance) ?? walletErrors.insufficientFunds(plan.entry?.currency ?? '', '0', '0'),
          plan.now,
        );
      case 'counter_stale':
        // Only when a plan's expectation was not taken under the counter lock: plan again.
        counterValue = outcome.current;
        continue;
      case 'recorded':
        throw new Error('wallet_apply recorded an error that was not asked for');
    }
  }
  throw errors.aborted('concurrent_update', 'too many concurrent updates of the same allowance, try again');
}

function blockedError(reason: string): DomainError {
  return reason === 'read_only' ? walletErrors.readOnly() : walletErrors.killSwitch(reason.replace(/^kill_switch:/, ''));
}

/**
 * Runs a state-dependent rule while planning: its DomainError becomes a Refused step (recorded
 * with the key); anything else propagates.
 */
export function decide<T>(now: Date, rule: () => T): { value: T } | Refused {
  try {
    return { value: rule() };
  } catch (err) {
    if (isDomainError(err)) return { refused: err, now };
    throw err;
  }
}
