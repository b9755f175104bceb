// ExchangeClient: one transport shared by per-area APIs (`client.agents`, later `client.wallets`…),
// each in its own file, so the client never grows into one giant class.
import { AgentsApi } from './agents';
import { getHealth, type Health } from './health';
import { LedgerApi } from './ledger';
import { ReceiptsApi } from './receipts';
import { Transport, type TransportOptions } from './transport';
import { WalletsApi } from './wallets';

/** Options of `ExchangeClient`: see `TransportOptions` (base URL, credentials, timeouts). */
export type ExchangeClientOptions = TransportOptions;

export class ExchangeClient {
  readonly agents: AgentsApi;
  readonly wallets: WalletsApi;
  readonly receipts: ReceiptsApi;
  readonly ledger: LedgerApi;
  protected readonly transport: Transport;

  constructor(readonly options: ExchangeClientOptions) {
    if (!options.baseUrl) throw new Error('ExchangeClient: baseUrl is required');
    this.transport = new Transport(options);
    this.agents = new AgentsApi(this.transport);
    this.wallets = new WalletsApi(this.transport);
    this.receipts = new ReceiptsApi(this.transport);
    this.ledger = new LedgerApi(this.transport);
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
