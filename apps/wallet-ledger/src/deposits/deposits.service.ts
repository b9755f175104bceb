import { errors, newId, parsePositiveAmount, resolveLimit, toPage } from '@exchange/platform';
import { CREDIT, parseCurrency } from '../domain/currency';
import { faucetAllowance } from '../domain/daily-allowance';
import { depositPostings, faucetPostings } from '../domain/postings';
import { utcDay } from '../domain/utc-day';
import { walletErrors } from '../domain/wallet.errors';
import type {
  CreateDepositCommand,
  DepositCommand,
  DepositResult,
  FaucetCommand,
  FaucetResult,
  ListDepositsQuery,
  Page,
} from '../domain/wallet.commands';
import type { Deposit, FaucetGrant } from '../domain/wallet.model';
import type { Caller } from '../events/wallet.events';
import { decide, execute, type ResponseCodec } from '../service/execute';
import { activeAgent, claimFor, optionalText, requireText, type MutationDeps } from '../service/use-case';
import { confirmedDeposit, expiredDeposit } from './deposits';
import { depositsEvents } from './deposits.events';
import type { DepositsRepo } from './deposits.repo';

export interface DepositsDeps extends MutationDeps {
  repo: Pick<DepositsRepo, 'deposit' | 'deposits'>;
  /** `mainnet`: the faucet does not exist. */
  environment: 'sandbox' | 'mainnet';
  codecs: {
    faucet: ResponseCodec<FaucetResult>;
    createDeposit: ResponseCodec<DepositResult>;
    confirmDeposit: ResponseCodec<DepositResult>;
    expireDeposit: ResponseCodec<DepositResult>;
  };
}

/**
 * Money coming in: the sandbox faucet, and deposits — pending requests that an operator confirms
 * (credits the wallet) or expires.
 */
export class DepositsService {
  constructor(private readonly ctx: DepositsDeps) {}

  async faucet(req: FaucetCommand, caller: Caller): Promise<FaucetResult> {
    // In mainnet mode the faucet does not exist: that answer comes before any validation.
    if (this.ctx.environment !== 'sandbox') throw walletErrors.faucetUnavailable();
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'faucet');
    const amount = parsePositiveAmount(req.amount);
    const currency = parseCurrency(req.currency);
    if (currency !== CREDIT) throw walletErrors.unsupportedCurrency(currency);
    const category = requireText(req.category, 'category', 64);
    // Every identity level keeps the sandbox faucet (capabilities are cumulative, spec §3).
    await activeAgent(this.ctx, agentId);
    const counterKey = `faucet/${agentId}/${category}`;

    const now = this.ctx.clock();
    const day = utcDay(now);
    return execute(this.ctx.writer, {
      idempotency,
      control: 'faucet',
      codec: this.ctx.codecs.faucet,
      counter: { key: counterKey, day },
      plan: async (grantedToday) => {
        const decided = decide(now, () => faucetAllowance({ grantedToday, amount, category, now }));
        if ('refused' in decided) return decided;
        const allowance = decided.value;
        const entryId = newId('jrn');
        const grant: FaucetGrant = {
          faucetGrantId: newId('fgr'),
          agentId,
          amount,
          currency,
          category,
          journalEntryId: entryId,
          grantedToday: allowance.usedAfter,
          remainingToday: allowance.remaining,
          resetsAt: allowance.resetsAt,
          createdAt: now,
        };
        return {
          result: { grant, idempotentReplayed: false },
          plan: {
            now,
            counter: { key: counterKey, day, expect: grantedToday, delta: amount },
            entry: { entryId, kind: 'faucet', currency, postings: faucetPostings(agentId, currency, amount) },
            writes: [{ table: 'faucet_grants', value: grant }],
            events: [depositsEvents.faucetGranted(grant, caller)],
          },
        };
      },
    });
  }

  private async ownedDeposit(agentId: string, depositId: string): Promise<Deposit> {
    const deposit = depositId ? await this.ctx.repo.deposit(depositId) : undefined;
    if (!deposit || deposit.agentId !== agentId) throw errors.notFound('deposit', depositId);
    return deposit;
  }

  async createDeposit(req: CreateDepositCommand, caller: Caller): Promise<DepositResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'create_deposit');
    const amount = parsePositiveAmount(req.amount);
    const currency = parseCurrency(req.currency);
    const method = req.method;
    if (!method) throw walletErrors.validationFailed('method must be sandbox, bank or crypto', { field: 'method' });
    const reference = optionalText(req.reference, 'reference');
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.createDeposit,
      plan: async () => {
        const now = this.ctx.clock();
        const deposit: Deposit = {
          depositId: newId('dep'),
          agentId,
          amount,
          currency,
          method,
          reference,
          status: 'pending',
          journalEntryId: null,
          createdAt: now,
          updatedAt: now,
        };
        return {
          result: { deposit, idempotentReplayed: false },
          plan: { now, writes: [{ table: 'deposits', value: deposit }], events: [depositsEvents.deposit('created', deposit, caller)] },
        };
      },
    });
  }

  async listDeposits(req: ListDepositsQuery): Promise<Page<Deposit>> {
    const agentId = requireText(req.agentId, 'agent_id');
    // An unknown agent has no wallet: 404 like GetBalance, not an empty list (issue 13).
    await this.ctx.agents.get(agentId);
    const limit = resolveLimit(req.page?.limit);
    const status = req.status;
    if (status === null) throw walletErrors.validationFailed('unknown deposit status', { field: 'status' });
    const rows = await this.ctx.repo.deposits(agentId, { status, cursor: req.page?.cursor || undefined, limit });
    const page = toPage(rows, limit, (d) => ({ createdAt: d.createdAt, id: d.depositId }));
    return { items: page.data, nextCursor: page.nextCursor };
  }

  async confirmDeposit(req: DepositCommand, caller: Caller): Promise<DepositResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'confirm_deposit');
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.confirmDeposit,
      plan: async () => {
        const deposit = await this.ownedDeposit(agentId, req.depositId);
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const decided = decide(now, () => confirmedDeposit(deposit, entryId, now));
        if ('refused' in decided) return decided;
        const after = decided.value;
        return {
          result: { deposit: after, idempotentReplayed: false },
          guardWanted: 'confirmed',
          plan: {
            now,
            guard: { entity: 'deposit', id: deposit.depositId, status: 'pending' },
            entry: { entryId, kind: 'deposit_confirm', currency: deposit.currency, postings: depositPostings(agentId, deposit.currency, deposit.amount) },
            writes: [{ table: 'deposits', value: after }],
            events: [depositsEvents.deposit('confirmed', after, caller)],
          },
        };
      },
    });
  }

  async expireDeposit(req: DepositCommand, caller: Caller): Promise<DepositResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'expire_deposit');
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.expireDeposit,
      plan: async () => {
        const deposit = await this.ownedDeposit(agentId, req.depositId);
        const now = this.ctx.clock();
        const decided = decide(now, () => expiredDeposit(deposit, now));
        if ('refused' in decided) return decided;
        const after = decided.value;
        return {
          result: { deposit: after, idempotentReplayed: false },
          guardWanted: 'expired',
          plan: {
            now,
            guard: { entity: 'deposit', id: deposit.depositId, status: 'pending' },
            writes: [{ table: 'deposits', value: after }],
            events: [depositsEvents.deposit('expired', after, caller)],
          },
        };
      },
    });
  }
}
