// The Wallets area of the REST API (spec §4 Wallets; DESIGN §3 Money and Idempotency). Amounts
// are decimal strings ("12.5"), never numbers. Every mutation takes an optional `idempotencyKey`:
// pass your own and reuse it when retrying (see idempotency.ts).
import { sendIdempotent } from './idempotency';
import { paginate, type Page, type PageParams } from './pagination';
import { pathSegment, type Transport } from './transport';
import type { api } from './wire';

export type BalanceSnapshot = api.BalanceSnapshot;
export type Balance = api.Balance;
export type FaucetGrant = api.FaucetGrant;
export type Transfer = api.Transfer;
export type Hold = api.Hold;
export type Deposit = api.Deposit;
export type PayoutDestination = api.CreatePayoutDestinationResponse;
export type Withdrawal = api.Withdrawal;
export type HoldStatus = Hold['status'];
export type DepositStatus = Deposit['status'];
export type DepositMethod = Deposit['method'];
export type PayoutDestinationType = PayoutDestination['type'];
export type WithdrawalStatus = Withdrawal['status'];

/** Every mutation accepts a key; without one the SDK generates a fresh key (no retry safety). */
export interface Idempotent {
  idempotencyKey?: string;
}

export interface FaucetInput extends Idempotent {
  amount: string;
  /** The 200 CREDIT/day cap is per category. */
  category: string;
  /** Only CREDIT (the default). */
  currency?: string;
}

export interface TransferInput extends Idempotent {
  toAgentId: string;
  amount: string;
  /** `CREDIT` or an ISO 4217 code such as `USD` (anything else: 400 `unsupported_currency`), here and in every money field. */
  currency: string;
  memo?: string;
}

export interface CreateHoldInput extends Idempotent {
  amount: string;
  currency: string;
  expiresAt?: Date | string;
  reference?: string;
}

export interface ConsumeHoldInput extends Idempotent {
  toAgentId: string;
  /** At most the held amount; default all of it (the rest is released). */
  amount?: string;
}

export interface CreateDepositInput extends Idempotent {
  amount: string;
  currency: string;
  method: DepositMethod;
  reference?: string;
}

export interface CreatePayoutDestinationInput extends Idempotent {
  type: PayoutDestinationType;
  details: Record<string, string>;
  label: string;
}

export interface CreateWithdrawalInput extends Idempotent {
  amount: string;
  currency: string;
  payoutDestinationId: string;
}

export interface ListDepositsParams extends PageParams {
  status?: DepositStatus;
}

const walletPath = (agentId: string, suffix = ''): string => `/v1/wallets/${pathSegment(agentId)}${suffix}`;

/** Drops undefined members so that an absent optional is absent from the JSON body. */
function compact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

export class WalletsApi {
  constructor(private readonly transport: Transport) {}

  private mutate<T>(path: string, body: Record<string, unknown>, key: string | undefined): Promise<T> {
    return sendIdempotent<T>(this.transport, { method: 'POST', path, body: compact(body) }, key);
  }

  /** GET /v1/wallets/{agent_id} */
  getBalance(agentId: string): Promise<BalanceSnapshot> {
    return this.transport.request<BalanceSnapshot>({ method: 'GET', path: walletPath(agentId) });
  }

  /**
   * Sandbox credits, at every identity level: at most 200 CREDIT per (agent, category) per UTC day (403
   * `faucet_cap_exceeded`, `details.resets_at`). A mainnet exchange has no faucet (403 `faucet_unavailable`).
   */
  faucet(agentId: string, input: FaucetInput): Promise<FaucetGrant> {
    return this.mutate(
      walletPath(agentId, '/faucet'),
      { amount: input.amount, currency: input.currency, category: input.category } satisfies api.WalletFaucetRequest,
      input.idempotencyKey,
    );
  }

  transfer(agentId: string, input: TransferInput): Promise<Transfer> {
    return this.mutate(
      walletPath(agentId, '/transfer'),
      { to_agent_id: input.toAgentId, amount: input.amount, currency: input.currency, memo: input.memo } satisfies api.WalletTransferRequest,
      input.idempotencyKey,
    );
  }

  createHold(agentId: string, input: CreateHoldInput): Promise<Hold> {
    const expiresAt = input.expiresAt instanceof Date ? input.expiresAt.toISOString() : input.expiresAt;
    return this.mutate(
      walletPath(agentId, '/holds'),
      { amount: input.amount, currency: input.currency, expires_at: expiresAt, reference: input.reference } satisfies api.CreateHoldRequest,
      input.idempotencyKey,
    );
  }

  releaseHold(agentId: string, holdId: string, input: Idempotent = {}): Promise<Hold> {
    return this.mutate(walletPath(agentId, `/holds/${pathSegment(holdId)}/release`), {} satisfies api.ReleaseHoldRequest, input.idempotencyKey);
  }

  consumeHold(agentId: string, holdId: string, input: ConsumeHoldInput): Promise<Hold> {
    return this.mutate(
      walletPath(agentId, `/holds/${pathSegment(holdId)}/consume`),
      { to_agent_id: input.toAgentId, amount: input.amount } satisfies api.ConsumeHoldRequest,
      input.idempotencyKey,
    );
  }

  createDeposit(agentId: string, input: CreateDepositInput): Promise<Deposit> {
    return this.mutate(
      walletPath(agentId, '/deposits'),
      { amount: input.amount, currency: input.currency, method: input.method, reference: input.reference } satisfies api.CreateDepositRequest,
      input.idempotencyKey,
    );
  }

  listDeposits(agentId: string, params: ListDepositsParams = {}): Promise<Page<Deposit>> {
    return this.transport.request<Page<Deposit>>({
      method: 'GET',
      path: walletPath(agentId, '/deposits'),
      query: { limit: params.limit, cursor: params.cursor, status: params.status },
    });
  }

  iterateDeposits(agentId: string, params: Omit<ListDepositsParams, 'cursor'> = {}): AsyncGenerator<Deposit, void, undefined> {
    return paginate((cursor) => this.listDeposits(agentId, { ...params, cursor }));
  }

  /** Operator token only. */
  confirmDeposit(agentId: string, depositId: string, input: Idempotent = {}): Promise<Deposit> {
    return this.mutate(walletPath(agentId, `/deposits/${pathSegment(depositId)}/confirm`), {} satisfies api.ConfirmDepositRequest, input.idempotencyKey);
  }

  /** Operator token only. */
  expireDeposit(agentId: string, depositId: string, input: Idempotent = {}): Promise<Deposit> {
    return this.mutate(walletPath(agentId, `/deposits/${pathSegment(depositId)}/expire`), {} satisfies api.ExpireDepositRequest, input.idempotencyKey);
  }

  /** A crypto address equal to one of the agent's signing keys is refused (400 `signing_key_reuse`). */
  createPayoutDestination(agentId: string, input: CreatePayoutDestinationInput): Promise<PayoutDestination> {
    return this.mutate(
      walletPath(agentId, '/payout_destinations'),
      { type: input.type, details: input.details, label: input.label } satisfies api.CreatePayoutDestinationRequest,
      input.idempotencyKey,
    );
  }

  listPayoutDestinations(agentId: string, params: PageParams = {}): Promise<Page<PayoutDestination>> {
    return this.transport.request<Page<PayoutDestination>>({
      method: 'GET',
      path: walletPath(agentId, '/payout_destinations'),
      query: { limit: params.limit, cursor: params.cursor },
    });
  }

  iteratePayoutDestinations(agentId: string, params: Omit<PageParams, 'cursor'> = {}): AsyncGenerator<PayoutDestination, void, undefined> {
    return paginate((cursor) => this.listPayoutDestinations(agentId, { ...params, cursor }));
  }

  /** Needs MAINNET_ATTESTED or higher; daily limits per currency (403 `withdrawal_limit_exceeded`). */
  createWithdrawal(agentId: string, input: CreateWithdrawalInput): Promise<Withdrawal> {
    return this.mutate(
      walletPath(agentId, '/withdrawals'),
      { amount: input.amount, currency: input.currency, payout_destination_id: input.payoutDestinationId } satisfies api.CreateWithdrawalRequest,
      input.idempotencyKey,
    );
  }

  getWithdrawal(agentId: string, withdrawalId: string): Promise<Withdrawal> {
    return this.transport.request<Withdrawal>({ method: 'GET', path: walletPath(agentId, `/withdrawals/${pathSegment(withdrawalId)}`) });
  }

  /** Only while `requested`; else 409 `invalid_state`. */
  cancelWithdrawal(agentId: string, withdrawalId: string, input: Idempotent = {}): Promise<Withdrawal> {
    return this.mutate(walletPath(agentId, `/withdrawals/${pathSegment(withdrawalId)}/cancel`), {} satisfies api.CancelWithdrawalRequest, input.idempotencyKey);
  }
}
