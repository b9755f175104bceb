import type { IdempotencyClaim, AgentDirectory, AgentInfo, LedgerWriter } from '../domain/ledger.ports';
import { requestFingerprint, requireIdempotencyKey } from '../domain/idempotency';
import { walletErrors } from '../domain/wallet.errors';
import type { WalletReader } from '../data/wallet.reader';
import type {
  CorrectionResult,
  Keyed,
  DepositResult,
  FaucetResult,
  HoldResult,
  PayoutDestinationResult,
  SettlementResult,
  TransferResult,
  WithdrawalResult,
} from '../domain/wallet.commands';
import type { ResponseCodec } from './execute';

/**
 * The stored form of each mutation's answer (kept with its idempotency key, replayed as is): the
 * API's JSON of the response, so the transport supplies it (grpc/wallet.codecs.ts).
 */
export interface ResponseCodecs {
  faucet: ResponseCodec<FaucetResult>;
  transfer: ResponseCodec<TransferResult>;
  createHold: ResponseCodec<HoldResult>;
  releaseHold: ResponseCodec<HoldResult>;
  consumeHold: ResponseCodec<HoldResult>;
  createDeposit: ResponseCodec<DepositResult>;
  confirmDeposit: ResponseCodec<DepositResult>;
  expireDeposit: ResponseCodec<DepositResult>;
  createPayoutDestination: ResponseCodec<PayoutDestinationResult>;
  createWithdrawal: ResponseCodec<WithdrawalResult>;
  cancelWithdrawal: ResponseCodec<WithdrawalResult>;
  settle: ResponseCodec<SettlementResult>;
  refund: ResponseCodec<SettlementResult>;
  correctSettlement: ResponseCodec<CorrectionResult>;
}

/** What every wallet service needs. */
export interface WalletContext {
  writer: LedgerWriter;
  reader: WalletReader;
  agents: AgentDirectory;
  clock: () => Date;
  environment: 'sandbox' | 'mainnet';
  codecs: ResponseCodecs;
}

/**
 * The wallet owner of a mutation: must exist and not be frozen — asked of identity now, never
 * from the cache, so the operator cannot move money a moment after the freeze answered.
 */
export async function activeAgent(ctx: WalletContext, agentId: string): Promise<AgentInfo> {
  const agent = await ctx.agents.current(agentId);
  if (agent.frozen) throw walletErrors.agentFrozen(agentId);
  return agent;
}

/** A required string field: present and at most `max` characters, else validation_failed. */
export function requireText(value: string | undefined, field: string, max = 255): string {
  if (value === undefined || value === '') throw walletErrors.validationFailed(`${field} is required`, { field });
  if (value.length > max) throw walletErrors.validationFailed(`${field} must be at most ${max} characters`, { field });
  return value;
}

/** An optional string field: absent → null, else at most `max` characters. */
export function optionalText(value: string | undefined, field: string, max = 255): string | null {
  if (value === undefined) return null;
  if (value.length > max) throw walletErrors.validationFailed(`${field} must be at most ${max} characters`, { field });
  return value;
}

/**
 * The idempotency claim of a mutation: scope = the wallet owner, the key as validated, and the
 * fingerprint of the request's proto3 JSON (every field but the key) with the operation name.
 */
export function claimFor(agentId: string, cmd: Keyed, operation: string): IdempotencyClaim {
  const valid = requireIdempotencyKey(cmd.idempotencyKey);
  return { scope: agentId, key: valid, operation, fingerprint: requestFingerprint(operation, cmd.requestJson) };
}
