import { errors, newId, parsePositiveAmount, resolveLimit, toPage } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { parseCurrency } from '../domain/currency';
import { confirmedDeposit, expiredDeposit } from '../domain/deposits';
import { depositPostings } from '../domain/postings';
import { walletErrors } from '../domain/wallet.errors';
import type { Deposit } from '../domain/wallet.model';
import { walletEvents, type Caller } from '../events/wallet.events';
import { fromProtoDepositMethod, fromProtoDepositStatus, pageInfo, toProtoDeposit } from '../grpc/wallet.mapper';
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

  async createDeposit(req: walletV1.CreateDepositRequest, caller: Caller): Promise<walletV1.CreateDepositResponse> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req.idempotencyKey, 'create_deposit', walletV1.CreateDepositRequest.toJSON(req));
    const amount = parsePositiveAmount(req.amount);
    const currency = parseCurrency(req.currency);
    const method = fromProtoDepositMethod(req.method);
    if (!method) throw walletErrors.validationFailed('method must be sandbox, bank or crypto', { field: 'method' });
    const reference = optionalText(req.reference, 'reference');
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: walletV1.CreateDepositResponse,
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
          result: { deposit: toProtoDeposit(deposit), idempotentReplayed: false },
          plan: { now, writes: [{ table: 'deposits', value: deposit }], events: [walletEvents.deposit('created', deposit, caller)] },
        };
      },
    });
  }

  async listDeposits(req: walletV1.ListDepositsRequest): Promise<walletV1.ListDepositsResponse> {
    const agentId = requireText(req.agentId, 'agent_id');
    // An unknown agent has no wallet: 404 like GetBalance, not an empty list (issue 13).
    await this.ctx.agents.get(agentId);
    const limit = resolveLimit(req.page?.limit);
    const status = req.status === walletV1.DepositStatus.DEPOSIT_STATUS_UNSPECIFIED ? undefined : fromProtoDepositStatus(req.status);
    if (req.status !== walletV1.DepositStatus.DEPOSIT_STATUS_UNSPECIFIED && !status) {
      throw walletErrors.validationFailed('unknown deposit status', { field: 'status' });
    }
    const rows = await this.ctx.reader.deposits(agentId, { status, cursor: req.page?.cursor || undefined, limit });
    const page = toPage(rows, limit, (d) => ({ createdAt: d.createdAt, id: d.depositId }));
    return { deposits: page.data.map(toProtoDeposit), page: pageInfo(page.nextCursor) };
  }

  async confirmDeposit(req: walletV1.ConfirmDepositRequest, caller: Caller): Promise<walletV1.ConfirmDepositResponse> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req.idempotencyKey, 'confirm_deposit', walletV1.ConfirmDepositRequest.toJSON(req));
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: walletV1.ConfirmDepositResponse,
      plan: async () => {
        const deposit = await this.ownedDeposit(agentId, req.depositId);
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const decided = decide(now, () => confirmedDeposit(deposit, entryId, now));
        if ('refused' in decided) return decided;
        const after = decided.value;
        return {
          result: { deposit: toProtoDeposit(after), idempotentReplayed: false },
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

  async expireDeposit(req: walletV1.ExpireDepositRequest, caller: Caller): Promise<walletV1.ExpireDepositResponse> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req.idempotencyKey, 'expire_deposit', walletV1.ExpireDepositRequest.toJSON(req));
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: walletV1.ExpireDepositResponse,
      plan: async () => {
        const deposit = await this.ownedDeposit(agentId, req.depositId);
        const now = this.ctx.clock();
        const decided = decide(now, () => expiredDeposit(deposit, now));
        if ('refused' in decided) return decided;
        const after = decided.value;
        return {
          result: { deposit: toProtoDeposit(after), idempotentReplayed: false },
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
