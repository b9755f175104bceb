import { formatAmount, parseAmount } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { randomBytes } from 'node:crypto';
import { prng } from '@exchange/testing';
import { codeOf, inParallel, outcome, tally, type Outcome } from './support/outcome';
import { balanceOf, expectLedgerConsistent, startLoadLedger, type LoadLedger, type Money, type WalletClient } from './support/ledger';

// Many clients hammering ten wallets, one of them hot, with transfers and holds (create, release,
// consume) whose amounts often exceed the balance. Afterwards the books must be exact: money
// conserved, nothing negative, every success reflected once, every failure a business answer.
const OPERATIONS = 5_000;
const CLIENTS = 32;
const WALLETS = 10;
const FUNDING = parseAmount('60');
const SEED = Number(process.env.LOAD_SEED ?? 20261121);
const ALLOWED = new Set(['ok', 'insufficient_funds', 'invalid_state']);

type Op =
  | { kind: 'transfer'; key: string; req: walletV1.TransferRequest }
  | { kind: 'hold'; key: string; req: walletV1.CreateHoldRequest }
  | { kind: 'release'; key: string; req: walletV1.ReleaseHoldRequest }
  | { kind: 'consume'; key: string; req: walletV1.ConsumeHoldRequest; held: bigint };

interface Done {
  op: Op;
  result: Outcome<unknown>;
}

interface HeldFunds {
  holdId: string;
  agentId: string;
  amount: bigint;
}

function send(client: WalletClient, op: Op): Promise<unknown> {
  switch (op.kind) {
    case 'transfer':
      return client.transfer(op.req);
    case 'hold':
      return client.createHold(op.req);
    case 'release':
      return client.releaseHold(op.req);
    case 'consume':
      return client.consumeHold(op.req);
  }
}

/** Applies one acknowledged operation to the model, from what was asked (not what was answered). */
function apply(model: Map<string, Money>, op: Op, holds: Map<string, HeldFunds>) {
  const m = (agent: string) => model.get(agent)!;
  switch (op.kind) {
    case 'transfer': {
      const amount = parseAmount(op.req.amount);
      m(op.req.agentId).available -= amount;
      m(op.req.toAgentId).available += amount;
      return;
    }
    case 'hold': {
      const amount = parseAmount(op.req.amount);
      m(op.req.agentId).available -= amount;
      m(op.req.agentId).held += amount;
      return;
    }
    case 'release': {
      const held = holds.get(op.req.holdId)!.amount;
      m(op.req.agentId).held -= held;
      m(op.req.agentId).available += held;
      return;
    }
    case 'consume': {
      const consumed = op.req.amount === undefined ? op.held : parseAmount(op.req.amount);
      m(op.req.agentId).held -= op.held;
      m(op.req.agentId).available += op.held - consumed;
      m(op.req.toAgentId).available += consumed;
      return;
    }
  }
}

describe('wallet-ledger under concurrent load', () => {
  let ledger: LoadLedger;
  const run = randomBytes(3).toString('hex');
  const wallets = Array.from({ length: WALLETS }, (_, i) => `load-${run}:agent:w${i}`);
  const hot = wallets[0];

  beforeAll(async () => {
    ledger = await startLoadLedger({ name: 'load_concurrency', agents: wallets.map((agentId) => ({ agentId })) });
  });

  afterAll(async () => {
    await ledger?.close();
  });

  it(`keeps the books exact through ${OPERATIONS} random operations from ${CLIENTS} clients over ${WALLETS} wallets (one hot)`, async () => {
    for (const agentId of wallets) {
      await ledger.client.faucet({ agentId, amount: formatAmount(FUNDING), currency: 'CREDIT', category: 'load', idempotencyKey: `fund-${agentId}` });
    }
    const clients = Array.from({ length: CLIENTS }, () => ledger.newClient());
    const holds = new Map<string, HeldFunds>();
    const recentHolds: HeldFunds[] = [];
    const done: Done[] = [];

    // Each client draws from its own seeded generator; which hold a release/consume targets
    // depends on what has been created so far, so several clients often race for one hold.
    const randoms = clients.map((_, w) => prng(SEED + w));
    const pickWallet = (rnd: () => number, not?: string) => {
      for (;;) {
        const w = rnd() < 0.4 ? hot : wallets[Math.floor(rnd() * WALLETS)];
        if (w !== not) return w;
      }
    };
    const randomAmount = (rnd: () => number, max: number) => formatAmount(BigInt(Math.floor(100_000 + rnd() * (max * 1_000_000 - 100_000))));
    const nextOp = (i: number, rnd: () => number): Op => {
      const key = `op-${i}`;
      const roll = rnd();
      const target = recentHolds.length > 0 ? recentHolds[Math.floor(rnd() * recentHolds.length)] : undefined;
      if (roll < 0.45 || (roll >= 0.7 && target === undefined)) {
        const from = pickWallet(rnd);
        return { kind: 'transfer', key, req: { agentId: from, toAgentId: pickWallet(rnd, from), amount: randomAmount(rnd, 25), currency: 'CREDIT', memo: `load ${i}`, idempotencyKey: key } };
      }
      if (roll < 0.7 || target === undefined) {
        return { kind: 'hold', key, req: { agentId: pickWallet(rnd), amount: randomAmount(rnd, 20), currency: 'CREDIT', expiresAt: undefined, reference: `load ${i}`, idempotencyKey: key } };
      }
      if (roll < 0.85) {
        return { kind: 'release', key, req: { agentId: target.agentId, holdId: target.holdId, idempotencyKey: key } };
      }
      const partial = rnd() < 0.5 ? formatAmount(1n + BigInt(Math.floor(rnd() * Number(target.amount - 1n)))) : undefined;
      return {
        kind: 'consume',
        key,
        held: target.amount,
        req: { agentId: target.agentId, holdId: target.holdId, toAgentId: pickWallet(rnd, target.agentId), amount: partial, idempotencyKey: key },
      };
    };

    let next = 0;
    await Promise.all(
      clients.map(async (client, w) => {
        for (let i = next++; i < OPERATIONS; i = next++) {
          const op = nextOp(i, randoms[w]);
          const result = await outcome(send(client, op));
          done.push({ op, result });
          if (result.ok && op.kind === 'hold') {
            const held = { holdId: (result.value as walletV1.CreateHoldResponse).hold!.holdId, agentId: op.req.agentId, amount: parseAmount(op.req.amount) };
            holds.set(held.holdId, held);
            recentHolds.push(held);
            if (recentHolds.length > 40) recentHolds.shift();
          }
        }
      }),
    );

    // Only business answers: no deadlock, serialization failure, timeout or internal error.
    const codes = tally(done.map((d) => codeOf(d.result)));
    const unexpected = done.filter((d) => !ALLOWED.has(codeOf(d.result)));
    expect({ unexpected: unexpected.slice(0, 5).map((d) => ({ op: d.op, result: d.result })), codes }).toEqual({ unexpected: [], codes });
    expect(done).toHaveLength(OPERATIONS);
    // The mix really exercised the contended paths.
    expect(codes['ok']).toBeGreaterThan(OPERATIONS / 4);
    expect(codes['insufficient_funds']).toBeGreaterThan(0);
    expect(codes['invalid_state']).toBeGreaterThan(0);

    // The expected balances follow from the successes alone, whatever order they committed in.
    const model = new Map(wallets.map((w) => [w, { available: FUNDING, held: 0n }]));
    for (const d of done) if (d.result.ok) apply(model, d.op, holds);
    const actual = new Map<string, Money>();
    for (const w of wallets) actual.set(w, await balanceOf(ledger.client, w));
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(model));
    let total = 0n;
    for (const { available, held } of actual.values()) {
      expect(available).toBeGreaterThanOrEqual(0n);
      expect(held).toBeGreaterThanOrEqual(0n);
      total += available + held;
    }
    expect(total).toBe(FUNDING * BigInt(WALLETS));

    // A consumed hold says how much went where; the answer matches the request.
    for (const d of done) {
      if (d.op.kind !== 'consume' || !d.result.ok) continue;
      const hold = (d.result.value as walletV1.ConsumeHoldResponse).hold!;
      const consumed = d.op.req.amount === undefined ? d.op.held : parseAmount(d.op.req.amount);
      expect({ status: hold.status, consumed: hold.consumedAmount, released: hold.releasedAmount, to: hold.consumedToAgentId }).toEqual({
        status: walletV1.HoldStatus.HOLD_STATUS_CONSUMED,
        consumed: formatAmount(consumed),
        released: formatAmount(d.op.held - consumed),
        to: d.op.req.toAgentId,
      });
    }

    // Every operation again with its key: the stored outcome comes back and nothing moves.
    const replays = await inParallel(done.length, CLIENTS, (i, w) => outcome(send(clients[w], done[i].op)));
    const mismatches: unknown[] = [];
    replays.forEach((replay, i) => {
      const first = done[i];
      if (codeOf(replay) !== codeOf(first.result)) {
        mismatches.push({ op: first.op, first: codeOf(first.result), replay: codeOf(replay) });
        return;
      }
      if (!replay.ok || !first.result.ok) return;
      const a = first.result.value as { idempotentReplayed: boolean; transfer?: walletV1.Transfer; hold?: walletV1.Hold };
      const b = replay.value as typeof a;
      const same =
        b.idempotentReplayed &&
        !a.idempotentReplayed &&
        (a.transfer ? b.transfer?.transferId === a.transfer.transferId && b.transfer?.journalEntryId === a.transfer.journalEntryId : true) &&
        (a.hold ? b.hold?.holdId === a.hold.holdId && b.hold?.status === a.hold.status : true);
      if (!same) mismatches.push({ op: first.op, first: a, replay: b });
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
    for (const w of wallets) expect(await balanceOf(ledger.client, w)).toEqual(model.get(w));

    await expectLedgerConsistent(ledger.client);
  }, 240_000);
});
