// ExchangeClient: one transport shared by per-area APIs (`client.agents`, `client.wallets`, `client.contracts`…),
// each in its own file, so the client never grows into one giant class.
import { AgentsApi } from './agents';
import { AliasesApi, IdentityRevealsApi } from './aliases';
import { ArtifactsApi } from './artifacts';
import { AttestationsApi } from './attestations';
import { BillingApi } from './billing';
import { CasefilesApi } from './casefiles';
import { CheckoutApi } from './checkout';
import { CommerceApi } from './commerce';
import { FixturesApi, TemplatesApi } from './catalog';
import { ContractsApi } from './contracts';
import { CoordinationApi } from './coordination';
import { DisputesApi } from './disputes';
import { GatewayProxyApi } from './gateway-proxy';
import { ResaleReviewsApi } from './governance';
import { MarketDataApi, RecommendationsApi, ReputationApi } from './insights';
import { IntegrityApi } from './integrity';
import { getHealth, type Health } from './health';
import { LedgerApi } from './ledger';
import { ListingsApi } from './listings';
import { MandatesApi } from './mandates';
import { MeteringApi } from './metering';
import { PurchasesApi, TransparencyApi } from './purchases';
import { WorkflowsApi } from './workflows';
import { ObjectsApi } from './objects';
import { OffersApi } from './offers';
import { ReceiptsApi } from './receipts';
import { ResultsApi } from './results';
import { Transport, type TransportOptions } from './transport';
import { TelemetryApi } from './telemetry';
import { VerifiersApi } from './verifiers';
import { WalletsApi } from './wallets';

/** Options of `ExchangeClient`: see `TransportOptions` (base URL, credentials, timeouts). */
export type ExchangeClientOptions = TransportOptions;

export class ExchangeClient {
  readonly agents: AgentsApi;
  readonly wallets: WalletsApi;
  readonly receipts: ReceiptsApi;
  readonly ledger: LedgerApi;
  /** Contracts and their sub-collections: `contracts.offers`, `contracts.results`, `contracts.disputes`. */
  readonly contracts: ContractsApi;
  readonly offers: OffersApi;
  readonly results: ResultsApi;
  readonly disputes: DisputesApi;
  readonly listings: ListingsApi;
  /** Verifier profiles, and `verifiers.listings`. */
  readonly verifiers: VerifiersApi;
  /** Telemetry: event feeds and JSONL exports, timelines, categories, matching signals, reports, rollups, outcome and verification metrics. */
  readonly telemetry: TelemetryApi;
  /** Market integrity: state, kill switches, erroneous clear, audit (changes are operator only). */
  readonly integrity: IntegrityApi;
  readonly reputation: ReputationApi;
  readonly recommendations: RecommendationsApi;
  /** Contract and work-product templates. */
  readonly templates: TemplatesApi;
  readonly fixtures: FixturesApi;
  readonly coordination: CoordinationApi;
  /** Price index and task tape. */
  readonly marketData: MarketDataApi;
  /** Resale lineage reviews (operator). */
  readonly resaleReviews: ResaleReviewsApi;
  /** Registry: signed objects, artifacts, attestations, casefiles, party aliases, identity reveals. */
  readonly objects: ObjectsApi;
  readonly artifacts: ArtifactsApi;
  readonly attestations: AttestationsApi;
  readonly casefiles: CasefilesApi;
  readonly aliases: AliasesApi;
  readonly identityReveals: IdentityRevealsApi;
  /** Commerce (UCP platform): platform and merchant profiles, negotiation, webhook checks. */
  readonly commerce: CommerceApi;
  /** Checkout sessions at UCP merchants: create, update, complete, cancel, approval, evidence, casefile. */
  readonly checkout: CheckoutApi;
  /** Spending mandates and their autonomy settings. */
  readonly mandates: MandatesApi;
  /** Intents, feedback, shadow comparison, purchase timelines and post-purchase cases. */
  readonly purchases: PurchasesApi;
  /** Operator transparency: monthly and spend-savings rollups, a session's lifecycle and evidence refs. */
  readonly transparency: TransparencyApi;
  /** Workflow runs (stages of shard contracts), their tasks and task event subscriptions. */
  readonly workflows: WorkflowsApi;
  /** Signed meter events and epoch pricing tables (tables: operator). */
  readonly metering: MeteringApi;
  /** Billing projections, period receipts and reconciliation (operator). */
  readonly billing: BillingApi;
  /** Gateway proxy calls against a budget, run casefiles, usage metrics (metrics: operator). */
  readonly gatewayProxy: GatewayProxyApi;
  protected readonly transport: Transport;

  constructor(readonly options: ExchangeClientOptions) {
    if (!options.baseUrl) throw new Error('ExchangeClient: baseUrl is required');
    this.transport = new Transport(options);
    this.agents = new AgentsApi(this.transport);
    this.wallets = new WalletsApi(this.transport);
    this.receipts = new ReceiptsApi(this.transport);
    this.ledger = new LedgerApi(this.transport);
    this.contracts = new ContractsApi(this.transport);
    this.offers = new OffersApi(this.transport);
    this.results = new ResultsApi(this.transport);
    this.disputes = new DisputesApi(this.transport);
    this.listings = new ListingsApi(this.transport);
    this.verifiers = new VerifiersApi(this.transport);
    this.telemetry = new TelemetryApi(this.transport);
    this.integrity = new IntegrityApi(this.transport);
    this.reputation = new ReputationApi(this.transport);
    this.recommendations = new RecommendationsApi(this.transport);
    this.templates = new TemplatesApi(this.transport);
    this.fixtures = new FixturesApi(this.transport);
    this.coordination = new CoordinationApi(this.transport);
    this.marketData = new MarketDataApi(this.transport);
    this.resaleReviews = new ResaleReviewsApi(this.transport);
    this.objects = new ObjectsApi(this.transport);
    this.artifacts = new ArtifactsApi(this.transport);
    this.attestations = new AttestationsApi(this.transport);
    this.casefiles = new CasefilesApi(this.transport);
    this.aliases = new AliasesApi(this.transport);
    this.identityReveals = new IdentityRevealsApi(this.transport);
    this.commerce = new CommerceApi(this.transport);
    this.checkout = new CheckoutApi(this.transport);
    this.mandates = new MandatesApi(this.transport);
    this.purchases = new PurchasesApi(this.transport);
    this.transparency = new TransparencyApi(this.transport);
    this.workflows = new WorkflowsApi(this.transport);
    this.metering = new MeteringApi(this.transport);
    this.billing = new BillingApi(this.transport);
    this.gatewayProxy = new GatewayProxyApi(this.transport);
  }

  /** GET /health; resolves (with status "degraded") on 503 too. */
  health(): Promise<Health> {
    return getHealth(this.transport);
  }

  /** Same settings, acting for another agent (`X-Agent-Id`). */
  withActingAgent(actingAgentId: string): ExchangeClient {
    return new ExchangeClient({ ...this.options, actingAgentId });
  }
}
