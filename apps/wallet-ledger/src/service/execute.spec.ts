import { status } from '@grpc/grpc-js';
import { errors } from '@exchange/platform';
import type { ApplyOutcome, IdempotencyClaim, LedgerWriter, MutationPlan } from '../domain/ledger.ports';
import { walletErrors } from '../domain/wallet.errors';
import { decide, execute, type ResponseCodec } from './execute';

interface Res {
  value: string;
  idempotentReplayed: boolean;
}
const codec: ResponseCodec<Res> = {
  toJSON: (r) => ({ value: r.value }),
  fromJSON: (j) => ({ value: (j as { value: string }).value, idempotentReplayed: false }),
};
const now = new Date('2026-11-21T12:00:00.000Z');
const claim: IdempotencyClaim = { scope: 'a:agent:b', key: 'k', fingerprint: 'fp', operation: 'op' };

/** A LedgerWriter answering scripted outcomes and recording every plan it got. */
function scripted(...outcomes: ApplyOutcome[]): LedgerWriter & { plans: MutationPlan[] } {
  const plans: MutationPlan[] = [];
  return {
    plans,
    async apply(plan) {
      plans.push(plan);
      const next = outcomes.shift();
      if (!next) throw new Error('no more outcomes');
      return next;
    },
    async withCounter(_key, _day, fn) {
      return fn(7n, this);
    },
  };
}

const planned = (value = 'done') => async () => ({
  result: { value, idempotentReplayed: false },
  guardWanted: 'released',
  plan: { now, guard: { entity: 'hold' as const, id: 'hld_1', status: 'active' } },
  onInsufficient: (available: bigint) => walletErrors.insufficientFunds('CREDIT', String(available), '9'),
});

describe('execute', () => {
  it('should return the planned response once applied, storing it with the key', async () => {
    const writer = scripted({ kind: 'applied' });
    await expect(execute(writer, { idempotency: claim, codec, plan: planned() })).resolves.toEqual({ value: 'done', idempotentReplayed: false });
    expect(writer.plans[0]).toMatchObject({ idempotency: claim, response: { value: 'done' } });
  });

  it('should replay a stored response for the same fingerprint', async () => {
    const writer = scripted({ kind: 'replayed', fingerprint: 'fp', response: { value: 'first' }, error: null });
    await expect(execute(writer, { idempotency: claim, codec, plan: planned() })).resolves.toEqual({ value: 'first', idempotentReplayed: true });
  });

  it('should refuse a stored key with another fingerprint, and replay a stored error as itself', async () => {
    await expect(
      execute(scripted({ kind: 'replayed', fingerprint: 'other', response: {}, error: null }), { idempotency: claim, codec, plan: planned() }),
    ).rejects.toMatchObject({ code: 'idempotency_key_reused', grpcCode: status.INVALID_ARGUMENT });
    const stored = { grpc_code: status.FAILED_PRECONDITION, code: 'insufficient_funds', message: 'no', details: { currency: 'CREDIT' } };
    await expect(
      execute(scripted({ kind: 'replayed', fingerprint: 'fp', response: null, error: stored }), { idempotency: claim, codec, plan: planned() }),
    ).rejects.toMatchObject({ code: 'insufficient_funds', message: 'no', details: { currency: 'CREDIT' } });
  });

  it('should record a guard failure as invalid_state with the key, then throw it', async () => {
    const writer = scripted({ kind: 'guard_failed', current: 'consumed' }, { kind: 'recorded' });
    await expect(execute(writer, { idempotency: claim, codec, plan: planned() })).rejects.toMatchObject({
      code: 'invalid_state',
      details: { current: 'consumed', wanted: 'released' },
    });
    expect(writer.plans[1]).toEqual({ now, control: undefined, idempotency: claim, error: expect.objectContaining({ code: 'invalid_state' }) });
  });

  it('should record insufficient funds with the available balance the store saw', async () => {
    const writer = scripted({ kind: 'insufficient', balance: 3n }, { kind: 'recorded' });
    await expect(execute(writer, { idempotency: claim, codec, plan: planned() })).rejects.toMatchObject({
      code: 'insufficient_funds',
      details: { available: '3', required: '9' },
    });
  });

  it('should replay the winner when recording finds a concurrent duplicate committed first', async () => {
    const writer = scripted({ kind: 'insufficient', balance: 0n }, { kind: 'replayed', fingerprint: 'fp', response: { value: 'winner' }, error: null });
    await expect(execute(writer, { idempotency: claim, codec, plan: planned() })).resolves.toEqual({ value: 'winner', idempotentReplayed: true });
  });

  it('should map blocked outcomes to read_only and kill switch errors, storing nothing', async () => {
    await expect(execute(scripted({ kind: 'blocked', reason: 'read_only' }), { codec, plan: planned() })).rejects.toMatchObject({
      grpcCode: status.UNAVAILABLE,
      code: 'read_only',
    });
    const writer = scripted({ kind: 'blocked', reason: 'kill_switch:faucet' });
    await expect(execute(writer, { idempotency: claim, control: 'faucet', codec, plan: planned() })).rejects.toMatchObject({ code: 'kill_switch:faucet' });
    expect(writer.plans).toHaveLength(1);
  });

  it('should record a refusal decided while planning, and throw it without a key to store it', async () => {
    const refused = async () => ({ refused: errors.invalidState('hold', 'expired', 'consumed'), now });
    const writer = scripted({ kind: 'recorded' });
    await expect(execute(writer, { idempotency: claim, codec, plan: refused })).rejects.toMatchObject({ code: 'invalid_state' });
    expect(writer.plans[0].error).toMatchObject({ code: 'invalid_state', details: { current: 'expired', wanted: 'consumed' } });
    const none = scripted();
    await expect(execute(none, { codec, plan: refused })).rejects.toMatchObject({ code: 'invalid_state' });
    expect(none.plans).toHaveLength(0);
  });

  it('should plan under the counter lock with its value, and plan again when a counter moved', async () => {
    const seen: bigint[] = [];
    const writer = scripted({ kind: 'counter_stale', current: 9n }, { kind: 'applied' });
    await execute(writer, {
      codec,
      counter: { key: 'c', day: '2026-11-21' },
      plan: async (used) => {
        seen.push(used);
        return { result: { value: 'x', idempotentReplayed: false }, plan: { now } };
      },
    });
    expect(seen).toEqual([7n, 9n]);
  });

  it('should turn rule errors into refusals and let other errors through', () => {
    expect(decide(now, () => 1)).toEqual({ value: 1 });
    expect(decide(now, () => { throw walletErrors.selfTransfer(); })).toMatchObject({ refused: { code: 'self_transfer' }, now });
    expect(() => decide(now, () => { throw new TypeError('bug'); })).toThrow(TypeError);
  });
});
