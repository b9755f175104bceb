export { ExchangeClient, type ExchangeClientOptions } from './client';
export {
  AgentsApi,
  type Agent,
  type AgentKey,
  type AgentStatus,
  type IdentityTransition,
  type KeyStatus,
  type ListAgentsParams,
  type RegisterAgentInput,
} from './agents';
export { getHealth, type Health, type ServiceServingStatus } from './health';
export {
  WalletsApi,
  type Balance,
  type BalanceSnapshot,
  type ConsumeHoldInput,
  type CreateDepositInput,
  type CreateHoldInput,
  type CreatePayoutDestinationInput,
  type CreateWithdrawalInput,
  type Deposit,
  type DepositMethod,
  type DepositStatus,
  type FaucetGrant,
  type FaucetInput,
  type Hold,
  type HoldStatus,
  type Idempotent,
  type ListDepositsParams,
  type PayoutDestination,
  type PayoutDestinationType,
  type Transfer,
  type TransferInput,
  type Withdrawal,
  type WithdrawalStatus,
} from './wallets';
export { ReceiptsApi, verifyReceipt, type Receipt, type ReceiptKind } from './receipts';
export { LedgerApi, type LedgerCheckReport, type LedgerDiscrepancy } from './ledger';
export { generateIdempotencyKey, idempotencyOf, type IdempotencyInfo } from './idempotency';
export { paginate, type Page, type PageParams } from './pagination';
export {
  ExchangeApiError,
  ExchangeNetworkError,
  isExchangeError,
  type ExchangeApiErrorInit,
  type NetworkErrorCode,
  type Problem,
  type ProblemFieldError,
} from './errors';
export { parseRetryAfter, problemToError } from './problem';
export {
  IDENTITY_LEVELS,
  agentSignatureHeaders,
  buildRegistrationBody,
  generateAgentKeys,
  isIdentityLevel,
  publicKeyToBase64,
  randomProofNonce,
  signRequest,
  unixSeconds,
  type AgentKeys,
  type BuildRegistrationInput,
  type IdentityLevel,
  type RegistrationBody,
  type SignRequestInput,
  type SignedRequest,
} from './keys';
export {
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  Transport,
  buildQuery,
  pathSegment,
  type AgentCredentials,
  type FetchLike,
  type QueryValue,
  type RequestOptions,
  type TransportOptions,
  type TransportResponse,
} from './transport';
export { runCli, type CliIo } from './cli/run-cli';
export { readKeyFile, writeKeyFile, type KeyFileContents } from './cli/key-file';
