import { errors, formatAmount, parseAmount } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';

// An in-memory wallet-ledger: `startProtoFake` (a real grpc-js server from the proto definition)
// with the methods the gateway calls. It answers each RPC with a resource built from the request,
// keeps available balances for faucet/transfer, and replays idempotency keys like the real
// service (same key + payload → stored answer with idempotent_replayed; other payload → reused).
// Business rules live in apps/wallet-ledger and its own suite; failures here come from failNext.

const W = walletV1;

export interface FakeWalletLedger extends ProtoFake {
  receipts: Map<string, walletV1.Receipt>;
}

type Idempotent = { idempotencyKey: string; agentId: string };

export async function startFakeWalletLedger(opts: { serving?: boolean } = {}): Promise<FakeWalletLedger> {
  const receipts = new Map<string, walletV1.Receipt>();
  const available = new Map<string, bigint>(); // `${agent}|${currency}` → micro-units
  const outcomes = new Map<string, { fingerprint: string; response: Record<string, unknown> }>();
  let seq = 0;
  const id = (prefix: string) => `${prefix}_fake-${++seq}`;
  const now = () => new Date(1_790_000_000_000 + seq);

  /** Runs `effect` once per (agent, key, payload); replays or refuses like the real service. */
  const idempotent = <Req extends Idempotent, Res extends Record<string, unknown>>(method: string, req: Req, effect: () => Res): Res => {
    if (req.idempotencyKey === '') return effect();
    const { idempotencyKey, ...payload } = req;
    const fingerprint = JSON.stringify({ method, payload });
    const scope = `${req.agentId}|${idempotencyKey}`;
    const stored = outcomes.get(scope);
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was used with a different request');
      }
      return { ...(stored.response as Res), idempotentReplayed: true };
    }
    const response = effect();
    outcomes.set(scope, { fingerprint, response });
    return response;
  };

  const credit = (agentId: string, currency: string, delta: bigint) => {
    const key = `${agentId}|${currency}`;
    const next = (available.get(key) ?? 0n) + delta;
    if (next < 0n) throw errors.failedPrecondition('insufficient_funds', 'insufficient funds', { available: formatAmount(next - delta) });
    available.set(key, next);
  };

  const hold = (agentId: string, over: Partial<walletV1.Hold> = {}): walletV1.Hold => ({
    holdId: id('hld'),
    agentId,
    amount: '30',
    currency: 'CREDIT',
    status: W.HoldStatus.HOLD_STATUS_ACTIVE,
    journalEntryIds: [id('jrn')],
    createdAt: now(),
    updatedAt: now(),
    ...over,
  });
  const deposit = (agentId: string, over: Partial<walletV1.Deposit> = {}): walletV1.Deposit => ({
    depositId: id('dep'),
    agentId,
    amount: '100',
    currency: 'CREDIT',
    method: W.DepositMethod.DEPOSIT_METHOD_SANDBOX,
    status: W.DepositStatus.DEPOSIT_STATUS_PENDING,
    createdAt: now(),
    updatedAt: now(),
    ...over,
  });
  const withdrawal = (agentId: string, over: Partial<walletV1.Withdrawal> = {}): walletV1.Withdrawal => ({
    withdrawalId: id('wdr'),
    agentId,
    amount: '25',
    currency: 'CREDIT',
    payoutDestinationId: 'pod_fake',
    status: W.WithdrawalStatus.WITHDRAWAL_STATUS_REQUESTED,
    journalEntryIds: [id('jrn')],
    createdAt: now(),
    updatedAt: now(),
    ...over,
  });

  const fake = await startProtoFake(W.WalletLedgerServiceService, {
    async getBalance(req: walletV1.GetBalanceRequest) {
      const balances = [...available.entries()]
        .filter(([key]) => key.startsWith(`${req.agentId}|`))
        .map(([key, micro]) => {
          const value = formatAmount(micro);
          return { currency: key.split('|')[1]!, available: value, held: '0', total: value };
        });
      return { agentId: req.agentId, balances, asOf: now() };
    },
    async faucet(req: walletV1.FaucetRequest) {
      return idempotent('faucet', req, () => {
        const micro = parseAmount(req.amount);
        credit(req.agentId, req.currency || 'CREDIT', micro);
        const grant: walletV1.FaucetGrant = {
          faucetGrantId: id('fgr'),
          agentId: req.agentId,
          amount: req.amount,
          currency: req.currency || 'CREDIT',
          category: req.category,
          journalEntryId: id('jrn'),
          grantedToday: req.amount,
          remainingToday: formatAmount(200_000_000n - micro),
          resetsAt: new Date('2026-11-22T00:00:00.000Z'),
          createdAt: now(),
        };
        return { grant, idempotentReplayed: false };
      });
    },
    async transfer(req: walletV1.TransferRequest) {
      return idempotent('transfer', req, () => {
        const micro = parseAmount(req.amount);
        credit(req.agentId, req.currency, -micro);
        credit(req.toAgentId, req.currency, micro);
        const transfer: walletV1.Transfer = {
          transferId: id('trf'),
          fromAgentId: req.agentId,
          toAgentId: req.toAgentId,
          amount: req.amount,
          currency: req.currency,
          memo: req.memo,
          journalEntryId: id('jrn'),
          createdAt: now(),
        };
        return { transfer, idempotentReplayed: false };
      });
    },
    async createHold(req: walletV1.CreateHoldRequest) {
      return idempotent('createHold', req, () => ({
        hold: hold(req.agentId, { amount: req.amount, currency: req.currency, expiresAt: req.expiresAt, reference: req.reference }),
        idempotentReplayed: false,
      }));
    },
    async releaseHold(req: walletV1.ReleaseHoldRequest) {
      return idempotent('releaseHold', req, () => ({
        hold: hold(req.agentId, { holdId: req.holdId, status: W.HoldStatus.HOLD_STATUS_RELEASED, releasedAmount: '30' }),
        idempotentReplayed: false,
      }));
    },
    async consumeHold(req: walletV1.ConsumeHoldRequest) {
      return idempotent('consumeHold', req, () => {
        const consumed = req.amount ?? '30';
        return {
          hold: hold(req.agentId, {
            holdId: req.holdId,
            status: W.HoldStatus.HOLD_STATUS_CONSUMED,
            consumedAmount: consumed,
            releasedAmount: formatAmount(30_000_000n - parseAmount(consumed)),
            consumedToAgentId: req.toAgentId,
          }),
          idempotentReplayed: false,
        };
      });
    },
    async createDeposit(req: walletV1.CreateDepositRequest) {
      return idempotent('createDeposit', req, () => ({
        deposit: deposit(req.agentId, { amount: req.amount, currency: req.currency, method: req.method, reference: req.reference }),
        idempotentReplayed: false,
      }));
    },
    async listDeposits(req: walletV1.ListDepositsRequest) {
      const rows = [deposit(req.agentId, { status: W.DepositStatus.DEPOSIT_STATUS_CONFIRMED, journalEntryId: 'jrn_1' }), deposit(req.agentId)];
      const filtered = req.status === W.DepositStatus.DEPOSIT_STATUS_UNSPECIFIED ? rows : rows.filter((d) => d.status === req.status);
      return { deposits: filtered, page: { nextCursor: req.page?.limit === 1 ? 'next-page' : '' } };
    },
    async confirmDeposit(req: walletV1.ConfirmDepositRequest) {
      return idempotent('confirmDeposit', req, () => ({
        deposit: deposit(req.agentId, { depositId: req.depositId, status: W.DepositStatus.DEPOSIT_STATUS_CONFIRMED, journalEntryId: id('jrn') }),
        idempotentReplayed: false,
      }));
    },
    async expireDeposit(req: walletV1.ExpireDepositRequest) {
      return idempotent('expireDeposit', req, () => ({
        deposit: deposit(req.agentId, { depositId: req.depositId, status: W.DepositStatus.DEPOSIT_STATUS_EXPIRED }),
        idempotentReplayed: false,
      }));
    },
    async createPayoutDestination(req: walletV1.CreatePayoutDestinationRequest) {
      return idempotent('createPayoutDestination', req, () => ({
        payoutDestination: {
          payoutDestinationId: id('pod'),
          agentId: req.agentId,
          type: req.type,
          details: req.details,
          label: req.label,
          createdAt: now(),
        },
        idempotentReplayed: false,
      }));
    },
    async listPayoutDestinations(req: walletV1.ListPayoutDestinationsRequest) {
      return {
        payoutDestinations: [
          {
            payoutDestinationId: 'pod_1',
            agentId: req.agentId,
            type: W.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_BANK_ACCOUNT,
            details: { iban: 'DE00' },
            label: 'bank',
            createdAt: now(),
          },
        ],
        page: { nextCursor: '' },
      };
    },
    async createWithdrawal(req: walletV1.CreateWithdrawalRequest) {
      return idempotent('createWithdrawal', req, () => ({
        withdrawal: withdrawal(req.agentId, { amount: req.amount, currency: req.currency, payoutDestinationId: req.payoutDestinationId }),
        idempotentReplayed: false,
      }));
    },
    async getWithdrawal(req: walletV1.GetWithdrawalRequest) {
      return {
        withdrawal: withdrawal(req.agentId, {
          withdrawalId: req.withdrawalId,
          status: W.WithdrawalStatus.WITHDRAWAL_STATUS_FAILED,
          failureReason: 'simulated payout failure',
        }),
      };
    },
    async cancelWithdrawal(req: walletV1.CancelWithdrawalRequest) {
      return idempotent('cancelWithdrawal', req, () => ({
        withdrawal: withdrawal(req.agentId, { withdrawalId: req.withdrawalId, status: W.WithdrawalStatus.WITHDRAWAL_STATUS_CANCELLED }),
        idempotentReplayed: false,
      }));
    },
    async getReceipt(req: walletV1.GetReceiptRequest) {
      const receipt = receipts.get(req.receiptId);
      if (!receipt) throw errors.notFound('receipt', req.receiptId);
      return { receipt };
    },
    async checkLedger() {
      return {
        ok: true,
        accountsChecked: '4',
        entriesChecked: '3',
        postingsChecked: '6',
        globalSums: { CREDIT: '0' },
        discrepancies: [],
        checkedAt: now(),
      };
    },
  }, { serving: opts.serving });
  return Object.assign(fake, { receipts });
}
