import { DomainError, errors } from '@exchange/platform';

// Every client-visible wallet failure, with the problem code of the shared contract
// (apps/wallet-ledger/README.md "Errors"). The gateway maps gRPC status (and a few codes) to HTTP.

export const walletErrors = {
  validationFailed: (message: string, details?: Record<string, unknown>) => errors.invalidArgument('validation_failed', message, details),
  unsupportedCurrency: (currency: string) =>
    errors.invalidArgument('unsupported_currency', `currency "${currency.slice(0, 16)}" is not supported (CREDIT or an ISO 4217 code)`, {
      currency: currency.slice(0, 16),
    }),
  selfTransfer: () => errors.invalidArgument('self_transfer', 'cannot move funds to the same agent'),
  amountExceedsHold: (amount: string, held: string) =>
    errors.invalidArgument('amount_exceeds_hold', `amount ${amount} exceeds the held ${held}`, { amount, held }),
  invalidExpiresAt: () => errors.invalidArgument('invalid_expires_at', 'expires_at must be in the future'),
  signingKeyReuse: () =>
    errors.invalidArgument('signing_key_reuse', 'a crypto payout address must not be one of the agent\'s signing keys'),
  idempotencyKeyRequired: () => errors.invalidArgument('idempotency_key_required', 'idempotency_key is required'),
  invalidIdempotencyKey: () =>
    errors.invalidArgument('invalid_idempotency_key', 'idempotency_key must be 1-255 printable ASCII characters'),
  idempotencyKeyReused: () =>
    errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request'),
  idempotencyInProgress: () => errors.aborted('idempotency_in_progress', 'a request with this idempotency_key is still running'),
  insufficientFunds: (currency: string, available: string, required: string) =>
    errors.failedPrecondition('insufficient_funds', `insufficient ${currency} funds`, { currency, available, required }),
  faucetCapExceeded: (details: { resets_at: string; remaining_today: string; category: string }) =>
    errors.resourceExhausted('faucet_cap_exceeded', 'the daily faucet cap of this category would be exceeded', details),
  withdrawalLimitExceeded: (details: { limit: string; used_today: string; resets_at: string }) =>
    errors.resourceExhausted('withdrawal_limit_exceeded', 'the daily withdrawal limit would be exceeded', details),
  faucetUnavailable: () => errors.permissionDenied('faucet_unavailable', 'the faucet exists only in sandbox; this exchange runs in mainnet mode'),
  /** Only through requireLevel (identity-levels.ts), which calls it for a level below `required`. */
  identityLevelInsufficient: (required: string, current: string) =>
    errors.permissionDenied('identity_level_insufficient', `identity level ${required} or higher is required; this agent is ${current}`, { required, current }),
  agentFrozen: (agentId: string) => errors.permissionDenied('agent_frozen', `agent ${agentId} is frozen`),
  holdControlledBy: (controller: string, holdId: string) =>
    errors.permissionDenied(`hold_controlled_by_${controller}`, `hold ${holdId} is controlled by ${controller}: only ${controller} moves it`, {
      hold_id: holdId,
      controller,
    }),
  readOnly: () => errors.unavailable('read_only', 'the wallet ledger is in read-only mode'),
  killSwitch: (name: string) => errors.unavailable(`kill_switch:${name}`, `${name} are switched off`),
  identityUnavailable: () => errors.unavailable('identity_unavailable', 'identity service unavailable'),
};

/** A business error as stored with its idempotency key (replayed as the same error). */
export interface StoredError {
  grpc_code: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export function toStoredError(err: DomainError): StoredError {
  return { grpc_code: err.grpcCode, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
}

export function fromStoredError(stored: StoredError): DomainError {
  return new DomainError(stored.grpc_code as DomainError['grpcCode'], stored.code, stored.message, stored.details);
}
