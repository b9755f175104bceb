import { formatAmount, parseAmount } from '@exchange/platform';
import { identityV1, walletV1 } from '@exchange/proto';
import { randomBytes } from 'node:crypto';
import { codeOf, eventually, inParallel, outcome, tally, type Outcome } from './support/outcome';
import { balanceOf, expectLedgerConsistent, startLoadLedger, type LoadLedger } from './support/ledger';

// Two moves race for one object's terminal state, hundreds of times: exactly one wins, the
// other gets 409 invalid_state, the object ends in the winner's state and the money follows
// the winner only. Then CheckLedger must find the books consistent.
const RACES = 150;
const PAIRS_IN_FLIGHT = 16;
const { HoldStatus, DepositStatus, WithdrawalStatus } = walletV1;

interface Race {
  first: Outcome<unknown>;
  second: Outcome<unknown>;
}

/** Both calls leave before either is awaited. */
async function race(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<Race> {
  const [first, second] = await Promise.all([outcome(a()), outcome(b())]);
  return { first, second };
}

/** Exactly one winner, the loser refused with invalid_state; returns which one won. */
function winnerOf(r: Race, label: string): 'first' | 'second' {
  const codes = [codeOf(r.first), codeOf(r.second)].sort().join('+');
  if (codes !== 'invalid_state+ok') throw new Error(`${label}: expected one ok and one invalid_state, got ${codes} (${JSON.stringify(r)})`);
  return r.first.ok ? 'first' : 'second';
}

describe('wallet-ledger terminal-state races', () => {
  let ledger: LoadLedger;
  const run = randomBytes(3).toString('hex');
  const payer = `race-${run}:agent:payer`;
  const payeeA = `race-${run}:agent:payee-a`;
  const payeeB = `race-${run}:agent:payee-b`;
  const depositor = `race-${run}:agent:depositor`;
  const withdrawer = `race-${run}:agent:withdrawer`;

  beforeAll(async () => {
    ledger = await startLoadLedger({
      name: 'load_races',
      agents: [
        { agentId: payer },
        { agentId: payeeA },
        { agentId: payeeB },
        { agentId: depositor },
        { agentId: withdrawer, level: identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_INSTITUTIONAL },
      ],
      env: {
        // The processor runs often, so cancels really race its moves to processing/completed.
        PAYOUT_PROCESSOR_INTERVAL_MS: '20',
        INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT: '1000000',
        HOLD_SWEEP_INTERVAL_MS: '60000',
      },
    });
  });

  afterAll(async () => {
    await ledger?.close();
  });

  async function createHolds(tag: string, count: number): Promise<string[]> {
    const created = await inParallel(count, PAIRS_IN_FLIGHT, (i) =>
      ledger.client.createHold({ agentId: payer, amount: '1', currency: 'CREDIT', expiresAt: undefined, reference: `${tag}-${i}`, idempotencyKey: `${tag}-hold-${i}` }),
    );
    return created.map((r) => r.hold!.holdId);
  }

  it(`consume || release and consume || consume on ${RACES} holds each: one winner per hold, funds follow it`, async () => {
    const { client } = ledger;
    await client.faucet({ agentId: payer, amount: '150', currency: 'CREDIT', category: 'race-a', idempotencyKey: 'fund-a' });
    await client.faucet({ agentId: payer, amount: '150', currency: 'CREDIT', category: 'race-b', idempotencyKey: 'fund-b' });

    // consume (0.6 to payee A, 0.4 back) against release (all back)
    const crHolds = await createHolds('cr', RACES);
    const crRaces = await inParallel(RACES, PAIRS_IN_FLIGHT, (i) =>
      race(
        () => client.consumeHold({ agentId: payer, holdId: crHolds[i], toAgentId: payeeA, amount: '0.6', idempotencyKey: `cr-consume-${i}` }),
        () => client.releaseHold({ agentId: payer, holdId: crHolds[i], idempotencyKey: `cr-release-${i}` }),
      ),
    );
    const crWinners = crRaces.map((r, i) => winnerOf(r, `hold ${crHolds[i]} consume||release`));

    // consume 0.3 to payee A against consume 0.7 to payee B
    const ccHolds = await createHolds('cc', RACES);
    const ccRaces = await inParallel(RACES, PAIRS_IN_FLIGHT, (i) =>
      race(
        () => client.consumeHold({ agentId: payer, holdId: ccHolds[i], toAgentId: payeeA, amount: '0.3', idempotencyKey: `cc-a-${i}` }),
        () => client.consumeHold({ agentId: payer, holdId: ccHolds[i], toAgentId: payeeB, amount: '0.7', idempotencyKey: `cc-b-${i}` }),
      ),
    );
    const ccWinners = ccRaces.map((r, i) => winnerOf(r, `hold ${ccHolds[i]} consume||consume`));

    // Each hold ends in its winner's state.
    const crFinal = await inParallel(RACES, PAIRS_IN_FLIGHT, (i) => client.getHold({ agentId: payer, holdId: crHolds[i] }));
    crFinal.forEach((res, i) => expect([crHolds[i], res.hold!.status]).toEqual([crHolds[i], crWinners[i] === 'first' ? HoldStatus.HOLD_STATUS_CONSUMED : HoldStatus.HOLD_STATUS_RELEASED]));
    const ccFinal = await inParallel(RACES, PAIRS_IN_FLIGHT, (i) => client.getHold({ agentId: payer, holdId: ccHolds[i] }));
    ccFinal.forEach((res, i) =>
      expect([ccHolds[i], res.hold!.status, res.hold!.consumedToAgentId, res.hold!.consumedAmount]).toEqual(
        ccWinners[i] === 'first' ? [ccHolds[i], HoldStatus.HOLD_STATUS_CONSUMED, payeeA, '0.3'] : [ccHolds[i], HoldStatus.HOLD_STATUS_CONSUMED, payeeB, '0.7'],
      ),
    );

    // Money moved for the winners only.
    const crConsumed = BigInt(crWinners.filter((w) => w === 'first').length);
    const ccToA = BigInt(ccWinners.filter((w) => w === 'first').length);
    const ccToB = BigInt(RACES) - ccToA;
    const micro = (s: string) => parseAmount(s);
    expect(await balanceOf(client, payeeA)).toEqual({ available: crConsumed * micro('0.6') + ccToA * micro('0.3'), held: 0n });
    expect(await balanceOf(client, payeeB)).toEqual({ available: ccToB * micro('0.7'), held: 0n });
    expect(await balanceOf(client, payer)).toEqual({
      available: micro('300') - crConsumed * micro('0.6') - ccToA * micro('0.3') - ccToB * micro('0.7'),
      held: 0n,
    });

    // The loser's key keeps its answer: replaying both sides gives the same codes.
    const replays = await inParallel(RACES, PAIRS_IN_FLIGHT, (i) =>
      race(
        () => client.consumeHold({ agentId: payer, holdId: crHolds[i], toAgentId: payeeA, amount: '0.6', idempotencyKey: `cr-consume-${i}` }),
        () => client.releaseHold({ agentId: payer, holdId: crHolds[i], idempotencyKey: `cr-release-${i}` }),
      ),
    );
    replays.forEach((r, i) => expect([codeOf(r.first), codeOf(r.second)]).toEqual([codeOf(crRaces[i].first), codeOf(crRaces[i].second)]));

    await expectLedgerConsistent(client);
  }, 180_000);

  it(`confirm || expire on ${RACES} deposits: one winner each, only confirmed ones credit the wallet`, async () => {
    const { client } = ledger;
    const amounts = Array.from({ length: RACES }, (_, i) => formatAmount(1_000_000n + BigInt(i) * 1_000n));
    const created = await inParallel(RACES, PAIRS_IN_FLIGHT, (i) =>
      client.createDeposit({ agentId: depositor, amount: amounts[i], currency: 'CREDIT', method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX, reference: `dep ${i}`, idempotencyKey: `dep-${i}` }),
    );
    const ids = created.map((r) => r.deposit!.depositId);
    const races = await inParallel(RACES, PAIRS_IN_FLIGHT, (i) =>
      race(
        () => client.confirmDeposit({ agentId: depositor, depositId: ids[i], idempotencyKey: `dep-confirm-${i}` }),
        () => client.expireDeposit({ agentId: depositor, depositId: ids[i], idempotencyKey: `dep-expire-${i}` }),
      ),
    );
    const winners = races.map((r, i) => winnerOf(r, `deposit ${ids[i]} confirm||expire`));

    const listed = new Map<string, walletV1.Deposit>();
    let cursor = '';
    do {
      const page = await client.listDeposits({ agentId: depositor, page: { limit: 200, cursor }, status: DepositStatus.DEPOSIT_STATUS_UNSPECIFIED });
      for (const d of page.deposits) listed.set(d.depositId, d);
      cursor = page.page?.nextCursor ?? '';
    } while (cursor !== '');
    ids.forEach((id, i) => expect([id, listed.get(id)?.status]).toEqual([id, winners[i] === 'first' ? DepositStatus.DEPOSIT_STATUS_CONFIRMED : DepositStatus.DEPOSIT_STATUS_EXPIRED]));

    const confirmed = amounts.reduce((sum, a, i) => (winners[i] === 'first' ? sum + parseAmount(a) : sum), 0n);
    expect(await balanceOf(client, depositor)).toEqual({ available: confirmed, held: 0n });
    await expectLedgerConsistent(client);
  }, 180_000);

  it(`cancel || payout processor on ${RACES} withdrawals: cancelled or completed, never both`, async () => {
    const { client, sql } = ledger;
    const funding = await client.createDeposit({ agentId: withdrawer, amount: '500', currency: 'CREDIT', method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX, reference: 'funding', idempotencyKey: 'w-fund' });
    await client.confirmDeposit({ agentId: withdrawer, depositId: funding.deposit!.depositId, idempotencyKey: 'w-fund-confirm' });
    const destination = await client.createPayoutDestination({
      agentId: withdrawer,
      type: walletV1.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_SANDBOX,
      details: { account: 'race' },
      label: 'race',
      idempotencyKey: 'w-dest',
    });
    const destinationId = destination.payoutDestination!.payoutDestinationId;

    // Each worker requests a withdrawal and cancels it after a short, varying pause, while the
    // processor (every 20 ms) moves requested ones to processing and completes them.
    const cancels = await inParallel(RACES, PAIRS_IN_FLIGHT, async (i) => {
      const created = await client.createWithdrawal({ agentId: withdrawer, amount: '1', currency: 'CREDIT', payoutDestinationId: destinationId, idempotencyKey: `w-${i}` });
      const id = created.withdrawal!.withdrawalId;
      await new Promise((r) => setTimeout(r, i % 40));
      return { id, cancel: await outcome(client.cancelWithdrawal({ agentId: withdrawer, withdrawalId: id, idempotencyKey: `w-cancel-${i}` })) };
    });
    const unexpected = cancels.filter((c) => !['ok', 'invalid_state'].includes(codeOf(c.cancel)));
    expect({ unexpected, codes: tally(cancels.map((c) => codeOf(c.cancel))) }).toMatchObject({ unexpected: [] });

    // Wait until the processor is done with every withdrawal that was not cancelled.
    const finals = await eventually('every withdrawal in a terminal state', async () => {
      const states = await inParallel(RACES, PAIRS_IN_FLIGHT, (i) => client.getWithdrawal({ agentId: withdrawer, withdrawalId: cancels[i].id }));
      const pending = states.filter((s) => [WithdrawalStatus.WITHDRAWAL_STATUS_REQUESTED, WithdrawalStatus.WITHDRAWAL_STATUS_PROCESSING].includes(s.withdrawal!.status));
      return pending.length === 0 ? states.map((s) => s.withdrawal!) : undefined;
    });
    finals.forEach((w, i) =>
      expect([w.withdrawalId, w.status]).toEqual([w.withdrawalId, cancels[i].cancel.ok ? WithdrawalStatus.WITHDRAWAL_STATUS_CANCELLED : WithdrawalStatus.WITHDRAWAL_STATUS_COMPLETED]),
    );

    // The event history of each withdrawal shows one path only.
    const { rows } = await sql.query<{ id: string; types: string[] }>(
      `SELECT payload->'data'->'withdrawal'->>'withdrawalId' AS id, array_agg(type ORDER BY created_at, id) AS types
         FROM outbox_events WHERE type LIKE 'exchange.wallet.withdrawal.%' GROUP BY 1`,
    );
    const history = new Map(rows.map((r) => [r.id, r.types]));
    const prefix = 'exchange.wallet.withdrawal.';
    finals.forEach((w) =>
      expect([w.withdrawalId, history.get(w.withdrawalId)]).toEqual([
        w.withdrawalId,
        (w.status === WithdrawalStatus.WITHDRAWAL_STATUS_CANCELLED ? ['requested', 'cancelled'] : ['requested', 'processing', 'completed']).map((t) => prefix + t),
      ]),
    );

    const completed = BigInt(finals.filter((w) => w.status === WithdrawalStatus.WITHDRAWAL_STATUS_COMPLETED).length);
    expect(await balanceOf(client, withdrawer)).toEqual({ available: parseAmount('500') - completed * parseAmount('1'), held: 0n });
    await expectLedgerConsistent(client);
  }, 180_000);
});
