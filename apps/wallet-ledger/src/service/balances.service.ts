import { formatAmount, newId, parsePositiveAmount } from '@exchange/platform';
import { CREDIT, parseCurrency } from '../domain/currency';
import { faucetAllowance } from '../domain/daily-allowance';
import { faucetPostings, transferPostings } from '../domain/postings';
import { utcDay } from '../domain/utc-day';
import { walletErrors } from '../domain/wallet.errors';
import type { FaucetCommand, FaucetResult, TransferCommand, TransferResult, WalletBalances } from '../domain/wallet.commands';
import type { FaucetGrant, Transfer } from '../domain/wallet.model';
import { walletEvents, type Caller } from '../events/wallet.events';
import { decide, execute } from './execute';
import { activeAgent, claimFor, optionalText, requireText, type WalletContext } from './wallet-context';

/** Balances, the sandbox faucet and agent-to-agent transfers. */
export class BalancesService {
  constructor(private readonly ctx: WalletContext) {}

  async getBalance(agentIdAsked: string): Promise<WalletBalances> {
    const agentId = requireText(agentIdAsked, 'agent_id');
    await this.ctx.agents.get(agentId);
    const balances = await this.ctx.reader.balances(agentId);
    // CREDIT is always listed (0 before the first grant) so a new wallet shows its currency.
    if (!balances.some((b) => b.currency === CREDIT)) balances.push({ currency: CREDIT, available: 0n, held: 0n });
    balances.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
    return { agentId, balances, asOf: this.ctx.clock() };
  }

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
            events: [walletEvents.faucetGranted(grant, caller)],
          },
        };
      },
    });
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
            events: [walletEvents.transferCompleted(transfer, caller)],
          },
          onInsufficient: (available) => walletErrors.insufficientFunds(currency, formatAmount(available), formatAmount(amount)),
        };
      },
    });
  }
}
