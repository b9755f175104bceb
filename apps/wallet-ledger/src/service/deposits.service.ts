import { errors, newId, parsePositiveAmount, resolveLimit, toPage } from '@exchange/platform';
import { parseCurrency } from '../domain/currency';
import { confirmedDeposit, expiredDeposit } from '../domain/deposits';
import { depositPostings } from '../domain/postings';
import { walletErrors } from '../domain/wallet.errors';
import type { CreateDepositCommand, DepositCommand, DepositResult, ListDepositsQuery, Page } from '../domain/wallet.commands';
import type { Deposit } from '../domain/wallet.model';
import { walletEvents, type Caller } from '../events/wallet.events';
import { decide, execute } from './execute';
import { activeAgent, claimFor, optionalText, requireText, type WalletContext } from './wallet-context';

/** Deposits: pending requests that an operator confirms (credits the wallet) or expires. */
export class DepositsService {
  constructor(private readonly ctx: WalletContext) {}

  private async ownedDeposit(agentId: string, depositId: string): Promise<Deposit> {
    const deposit = depositId ? await this.ctx.reader.deposit(depositId) : undefined;
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
          plan: { now, writes: [{ table: 'deposits', value: deposit }], events: [walletEvents.deposit('created', deposit, caller)] },
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
    const rows = await this.ctx.reader.deposits(agentId, { status, cursor: req.page?.cursor || undefined, limit });
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
            events: [walletEvents.deposit('confirmed', after, caller)],
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
            events: [walletEvents.deposit('expired', after, caller)],
          },
        };
      },
    });
  }
}
