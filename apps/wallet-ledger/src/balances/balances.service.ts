import { formatAmount, newId, parsePositiveAmount } from '@exchange/platform';
import { CREDIT, parseCurrency } from '../domain/currency';
import { transferPostings } from '../domain/postings';
import { walletErrors } from '../domain/wallet.errors';
import type { TransferCommand, TransferResult, WalletBalances } from '../domain/wallet.commands';
import type { Transfer } from '../domain/wallet.model';
import type { Caller } from '../events/wallet.events';
import { execute, type ResponseCodec } from '../service/execute';
import { activeAgent, claimFor, optionalText, requireText, type MutationDeps } from '../service/use-case';
import { balancesEvents } from './balances.events';
import type { BalancesRepo } from './balances.repo';

export interface BalancesDeps extends MutationDeps {
  repo: Pick<BalancesRepo, 'balances'>;
  codecs: { transfer: ResponseCodec<TransferResult> };
}

/** Balances and agent-to-agent transfers. */
export class BalancesService {
  constructor(private readonly ctx: BalancesDeps) {}

  async getBalance(agentIdAsked: string): Promise<WalletBalances> {
    const agentId = requireText(agentIdAsked, 'agent_id');
    await this.ctx.agents.get(agentId);
    const balances = await this.ctx.repo.balances(agentId);
    // CREDIT is always listed (0 before the first grant) so a new wallet shows its currency.
    if (!balances.some((b) => b.currency === CREDIT)) balances.push({ currency: CREDIT, available: 0n, held: 0n });
    balances.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
    return { agentId, balances, asOf: this.ctx.clock() };
  }

  async transfer(req: TransferCommand, caller: Caller): Promise<TransferResult> {
    const from = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(from, req, 'transfer');
    const to = requireText(req.toAgentId, 'to_agent_id');
    if (to === from) throw walletErrors.selfTransfer();
    const amount = parsePositiveAmount(req.amount);
    const currency = parseCurrency(req.currency);
    const memo = optionalText(req.memo, 'memo', 500);
    await Promise.all([activeAgent(this.ctx, from), this.ctx.agents.get(to)]);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.transfer,
      plan: async () => {
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const transfer: Transfer = {
          transferId: newId('trf'),
          fromAgentId: from,
          toAgentId: to,
          amount,
          currency,
          memo,
          journalEntryId: entryId,
          createdAt: now,
        };
        return {
          result: { transfer, idempotentReplayed: false },
          plan: {
            now,
            entry: { entryId, kind: 'transfer', currency, postings: transferPostings(from, to, currency, amount) },
            writes: [{ table: 'transfers', value: transfer }],
            events: [balancesEvents.transferCompleted(transfer, caller)],
          },
          onInsufficient: (available) => walletErrors.insufficientFunds(currency, formatAmount(available), formatAmount(amount)),
        };
      },
    });
  }
}
