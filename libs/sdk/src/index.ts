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
export { ReceiptsApi, verifyReceipt, type ExportReceiptsInput, type Receipt, type ReceiptKind } from './receipts';
export { LedgerApi, type LedgerCheckReport, type LedgerDiscrepancy } from './ledger';
export {
  ContractsApi,
  type CancelContractInput,
  type CreateContractInput,
  type ListContractsParams,
  type SubmitVerificationInput,
  type UpdateBuyerAliasInput,
} from './contracts';
export { ContractOffersApi, OffersApi, type ListOffersParams, type SubmitOfferInput } from './offers';
export { ContractResultsApi, ResultsApi, type ListResultsParams, type SubmitResultInput } from './results';
export { ContractDisputesApi, DisputesApi, type ListDisputesParams, type OpenDisputeInput, type ResolveDisputeInput } from './disputes';
export { ListingsApi, type CreateListingInput, type ListListingsParams } from './listings';
export {
  TelemetryApi,
  VerifierListingsApi,
  VerifiersApi,
  type CreateVerifierListingInput,
  type ListVerifierListingsParams,
  type RegisterVerifierInput,
} from './verifiers';
export {
  IntegrityApi,
  type ErroneousClearInput,
  type ErroneousClearResult,
  type IntegrityAuditAction,
  type IntegrityAuditEntry,
  type IntegritySnapshot,
  type IntegrityState,
  type KillSwitch,
  type KillSwitchName,
  type ListIntegrityAuditParams,
  type SetIntegrityStateInput,
  type SetKillSwitchInput,
} from './integrity';
export {
  MarketDataApi,
  RecommendationsApi,
  ReputationApi,
  type ContractRecommendations,
  type PriceIndex,
  type PriceIndexParams,
  type PriceIndexWindow,
  type RecommendationParams,
  type RecommendationSignals,
  type Reputation,
  type ReputationParams,
  type SellerRecommendations,
  type TapeFigure,
  type TaskTape,
  type TaskTapeParams,
  type TaskTapeWindow,
  type VerifierReputation,
} from './insights';
export {
  FixturesApi,
  TemplatesApi,
  type ContractTemplate,
  type DeterminismClass,
  type EvidenceTier,
  type Fixture,
  type FixtureSeller,
  type FixtureType,
  type ListFixturesParams,
  type ListTemplatesParams,
  type WorkProductTemplate,
} from './catalog';
export {
  CoordinationApi,
  type CreatedThread,
  type CreatePostInput,
  type CreateThreadInput,
  type ListPostsParams,
  type ListThreadsParams,
  type Post,
  type Thread,
} from './coordination';
export { ResaleReviewsApi, type DecideResaleReviewInput, type ListResaleReviewsParams } from './governance';
export type {
  Contract,
  ContractStatus,
  Dispute,
  DisputeOutcome,
  DisputeStatus,
  EscrowStatus,
  Listing,
  Money,
  Offer,
  OfferStatus,
  ResaleReview,
  ResaleReviewStatus,
  Result,
  ResultStatus,
  Verdict,
  VerificationCheck,
  VerificationMetrics,
  VerificationMode,
  VerificationReport,
  VerificationWindow,
  Verifier,
  VerifierListing,
} from './market-types';
export {
  reportChecks,
  signVerificationReport,
  verificationReportPayload,
  verifyVerificationReport,
  type VerificationReportInput,
} from './verification-report';
export { ObjectsApi, objectIdOf, signObjectPayload, type ListObjectsParams, type StoreObjectInput } from './objects';
export { ArtifactsApi, signArtifactAck, type SignedAckInput, type UploadArtifactInput } from './artifacts';
export { AttestationsApi, type AttestationFilter, type QueryAttestationsParams } from './attestations';
export {
  CasefilesApi,
  casefileArchiveBytes,
  type CasefileSubjectInput,
  type ExportCasefileInput,
  type ServerVerifyOptions,
} from './casefiles';
export { AliasesApi, IdentityRevealsApi, type MintAliasInput, type MintIdentityRevealInput } from './aliases';
export type {
  Ack,
  Artifact,
  ArtifactAccess,
  ArtifactDownload,
  ArtifactEnvelope,
  ArtifactEnvelopeView,
  ArtifactStatus,
  AttestationPayload,
  CasefileExport,
  CasefileVerdict,
  DeliveryReceipt,
  IdentityRevealPayload,
  ObjectVisibility,
  PartyAliasToken,
  PartyRole,
  RegistryObject,
} from './registry-types';
// Offline casefile verification (no network): the same code the CLI and the registry run.
export {
  CasefileUnreadableError,
  readArchive as readCasefileArchive,
  verifyArchive as verifyCasefileArchive,
  verifyDocket,
  type CasefileCheck,
  type Docket,
  type DocketEntry,
  type VerifyResult,
} from '@exchange/casefile';
export {
  PurchasesApi,
  TransparencyApi,
  type CaseEvent,
  type CaseStatus,
  type CaseType,
  type CaseUpdate,
  type CreateIntentInput,
  type Feedback,
  type Intent,
  type OpenCaseInput,
  type PostPurchaseCase,
  type PurchaseTimeline,
  type ShadowCompare,
  type ShadowCompareParams,
  type UpdateCaseInput,
} from './purchases';
export {
  WorkflowsApi,
  type ConsumeEventsInput,
  type CreateRunInput,
  type CreateSubscriptionInput,
  type ListRunContractsParams,
  type ListRunsParams,
  type ListTasksParams,
  type ShardContractSpec,
  type StageSpec,
  type WorkflowEventsConsumed,
  type WorkflowRun,
  type WorkflowRunStatus,
  type WorkflowShardContract,
  type WorkflowStage,
  type WorkflowSubscription,
  type WorkflowTask,
  type WorkflowTaskEvent,
  type WorkflowTaskEventList,
  type WorkflowTaskEventType,
  type WorkflowTaskStatus,
} from './workflows';
export { CommerceApi, type MerchantProfile, type Negotiation, type VerifyWebhookInput, type WebhookVerdict } from './commerce';
export {
  CheckoutApi,
  signApproval,
  type ApprovalDecision,
  type ApprovalInput,
  type ApprovalState,
  type CheckoutCasefileVerdict,
  type CheckoutOrigin,
  type CheckoutSession,
  type CheckoutStatus,
  type CompletedCheckout,
  type CreateCheckoutInput,
  type DiscountResult,
  type EvidenceItem,
  type EvidencePage,
  type LineItem,
  type Purchase,
  type UpdateCheckoutInput,
} from './checkout';
export {
  MandatesApi,
  signMandate,
  type Autonomy,
  type AutonomyInput,
  type AutonomyMode,
  type CreateMandateInput,
  type ListMandatesParams,
  type Mandate,
  type MandateAutonomy,
  type MandateStatus,
} from './mandates';
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
  randomRequestNonce,
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
