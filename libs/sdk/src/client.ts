// ExchangeClient: one transport shared by per-area APIs (`client.agents`, `client.wallets`, `client.contracts`…),
// each in its own file, so the client never grows into one giant class.
import { AgentsApi } from './agents';
import { getHealth, type Health } from './health';
import { LedgerApi } from './ledger';
import { ContractsApi, DisputesApi, ListingsApi, OffersApi, ResultsApi, TelemetryApi, VerifiersApi } from './market';
import { ReceiptsApi } from './receipts';
import { AliasesApi, ArtifactsApi, AttestationsApi, CasefilesApi, IdentityRevealsApi, ObjectsApi } from './registry';
import { Transport, type TransportOptions } from './transport';
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
  readonly telemetry: TelemetryApi;
  /** Registry: signed objects, artifacts, attestations, casefiles, party aliases, identity reveals. */
  readonly objects: ObjectsApi;
  readonly artifacts: ArtifactsApi;
  readonly attestations: AttestationsApi;
  readonly casefiles: CasefilesApi;
  readonly aliases: AliasesApi;
  readonly identityReveals: IdentityRevealsApi;
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
    this.objects = new ObjectsApi(this.transport);
    this.artifacts = new ArtifactsApi(this.transport);
    this.attestations = new AttestationsApi(this.transport);
    this.casefiles = new CasefilesApi(this.transport);
    this.aliases = new AliasesApi(this.transport);
    this.identityReveals = new IdentityRevealsApi(this.transport);
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
