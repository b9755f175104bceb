import { errors, formatAmount, newId, parseAmount, parsePositiveAmount, resolveLimit, toPage } from '@exchange/platform';
import { parseCurrency } from '../domain/currency';
import { withdrawalAllowance } from '../domain/daily-allowance';
import { requestFingerprint, optionalIdempotencyKey } from '../domain/idempotency';
import { withdrawalLimit } from '../domain/identity-levels';
import type { IdempotencyClaim } from '../domain/ledger.ports';
import { holdPostings, releasePostings } from '../domain/postings';
import { utcDay } from '../domain/utc-day';
import { walletErrors } from '../domain/wallet.errors';
import type {
  CreatePayoutDestinationCommand,
  CreateWithdrawalCommand,
  Page,
  PageQuery,
  PayoutDestinationResult,
  WithdrawalCommand,
  WithdrawalResult,
} from '../domain/wallet.commands';
import type { PayoutDestination, Withdrawal } from '../domain/wallet.model';
import type { Caller } from '../events/wallet.events';
import { decide, execute, type ResponseCodec } from '../service/execute';
import { activeAgent, claimFor, requireText, type MutationDeps } from '../service/use-case';
import { validateDestination } from './payout-destination';
import { payoutsEvents } from './payouts.events';
import type { PayoutsRepo } from './payouts.repo';
import { movedWithdrawal } from './withdrawals';

export interface PayoutsDeps extends MutationDeps {
  repo: Pick<PayoutsRepo, 'payoutDestination' | 'payoutDestinations' | 'withdrawal'>;
  codecs: {
    createPayoutDestination: ResponseCodec<PayoutDestinationResult>;
    createWithdrawal: ResponseCodec<WithdrawalResult>;
    cancelWithdrawal: ResponseCodec<WithdrawalResult>;
  };
}

/** The daily counter that withdrawal limits are checked against (per agent and currency). */
export function withdrawalCounterKey(agentId: string, currency: string): string {
  return `withdrawal/${agentId}/${currency}`;
}

/** Payout destinations and withdrawals (the payout processor moves them on: payout-processor.worker.ts). */
export class PayoutsService {
  constructor(
    private readonly ctx: PayoutsDeps,
    /** MAINNET_INSTITUTIONAL daily limit (INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT), micro-units. */
    private readonly institutionalLimit: bigint,
  ) {}

  async createPayoutDestination(req: CreatePayoutDestinationCommand, caller: Caller): Promise<PayoutDestinationResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const key = optionalIdempotencyKey(req.idempotencyKey);
    const idempotency: IdempotencyClaim | undefined = key
      ? {
          scope: agentId,
          key,
          operation: 'create_payout_destination',
          fingerprint: requestFingerprint('create_payout_destination', req.requestJson),
        }
      : undefined;
    const type = req.type;
    if (!type) throw walletErrors.validationFailed('type must be bank_account, crypto_address or sandbox', { field: 'type' });
    if (req.label.length > 100) throw walletErrors.validationFailed('label must be at most 100 characters', { field: 'label' });
    const agent = await activeAgent(this.ctx, agentId);
    validateDestination(type, req.details, agent.pubkeys);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.createPayoutDestination,
      plan: async () => {
        const now = this.ctx.clock();
        const destination: PayoutDestination = {
          payoutDestinationId: newId('pod'),
          agentId,
          type,
          details: { ...req.details },
          label: req.label,
          createdAt: now,
        };
        return {
          result: { payoutDestination: destination, idempotentReplayed: false },
          plan: {
            now,
            writes: [{ table: 'payout_destinations', value: destination }],
            events: [payoutsEvents.payoutDestinationCreated(destination, caller)],
          },
        };
      },
    });
  }

  async listPayoutDestinations(req: { agentId: string; page?: PageQuery }): Promise<Page<PayoutDestination>> {
    const agentId = requireText(req.agentId, 'agent_id');
    // An unknown agent has no wallet: 404 like GetBalance, not an empty list (issue 13).
    await this.ctx.agents.get(agentId);
    const limit = resolveLimit(req.page?.limit);
    const rows = await this.ctx.repo.payoutDestinations(agentId, { cursor: req.page?.cursor || undefined, limit });
    const page = toPage(rows, limit, (d) => ({ createdAt: d.createdAt, id: d.payoutDestinationId }));
    return { items: page.data, nextCursor: page.nextCursor };
  }

  private async ownedWithdrawal(agentId: string, withdrawalId: string): Promise<Withdrawal> {
    const withdrawal = withdrawalId ? await this.ctx.repo.withdrawal(withdrawalId) : undefined;
    if (!withdrawal || withdrawal.agentId !== agentId) throw errors.notFound('withdrawal', withdrawalId);
    return withdrawal;
  }

  async getWithdrawal(req: { agentId: string; withdrawalId: string }): Promise<Withdrawal> {
    const agentId = requireText(req.agentId, 'agent_id');
    await this.ctx.agents.get(agentId); // the wallet first: agent_not_found, as every wallet read
    return this.ownedWithdrawal(agentId, req.withdrawalId);
  }

  async createWithdrawal(req: CreateWithdrawalCommand, caller: Caller): Promise<WithdrawalResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'create_withdrawal');
    const amount = parsePositiveAmount(req.amount);
    const currency = parseCurrency(req.currency);
    const destinationId = requireText(req.payoutDestinationId, 'payout_destination_id');
    const agent = await activeAgent(this.ctx, agentId);
    const limit = withdrawalLimit(agent.level, this.institutionalLimit);
    const destination = await this.ctx.repo.payoutDestination(destinationId);
    if (!destination || destination.agentId !== agentId) throw errors.notFound('payout_destination', destinationId);
    const counterKey = withdrawalCounterKey(agentId, currency);

    const now = this.ctx.clock();
    const day = utcDay(now);
    return execute(this.ctx.writer, {
      idempotency,
      control: 'withdrawals',
      codec: this.ctx.codecs.createWithdrawal,
      counter: { key: counterKey, day },
      plan: async (usedToday) => {
        const decided = decide(now, () => withdrawalAllowance({ limit, usedToday, amount, now }));
        if ('refused' in decided) return decided;
        const entryId = newId('jrn');
        const withdrawal: Withdrawal = {
          withdrawalId: newId('wdr'),
          agentId,
          amount,
          currency,
          payoutDestinationId: destination.payoutDestinationId,
          status: 'requested',
          failureReason: null,
          journalEntryIds: [entryId],
          createdAt: now,
          updatedAt: now,
        };
        return {
          result: { withdrawal, idempotentReplayed: false },
          plan: {
            now,
            counter: { key: counterKey, day, expect: usedToday, delta: amount },
            entry: { entryId, kind: 'withdrawal_request', currency, postings: holdPostings(agentId, currency, amount) },
            writes: [{ table: 'withdrawals', value: withdrawal }],
            events: [payoutsEvents.withdrawal('requested', withdrawal, caller)],
          },
          onInsufficient: (available) => walletErrors.insufficientFunds(currency, formatAmount(available), formatAmount(amount)),
        };
      },
    });
  }

  async cancelWithdrawal(req: WithdrawalCommand, caller: Caller): Promise<WithdrawalResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'cancel_withdrawal');
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.cancelWithdrawal,
      plan: async () => {
        const withdrawal = await this.ownedWithdrawal(agentId, req.withdrawalId);
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const decided = decide(now, () => movedWithdrawal(withdrawal, 'cancelled', now, { entryId }));
        if ('refused' in decided) return decided;
        const after = decided.value;
        return {
          result: { withdrawal: after, idempotentReplayed: false },
          guardWanted: 'cancelled',
          plan: {
            now,
            guard: { entity: 'withdrawal', id: withdrawal.withdrawalId, status: 'requested' },
            // The cancelled amount no longer counts against the day it was requested on.
            counter: { key: withdrawalCounterKey(agentId, withdrawal.currency), day: utcDay(withdrawal.createdAt), expect: null, delta: -withdrawal.amount },
            entry: { entryId, kind: 'withdrawal_cancel', currency: withdrawal.currency, postings: releasePostings(agentId, withdrawal.currency, withdrawal.amount) },
            writes: [{ table: 'withdrawals', value: after }],
            events: [payoutsEvents.withdrawal('cancelled', after, caller)],
          },
        };
      },
    });
  }
}

/** INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT (decimal units) in micro-units. */
export function institutionalLimitFrom(value: string): bigint {
  return parseAmount(value);
}
