// ExchangeClient: one transport shared by per-area APIs (`client.agents`, later `client.wallets`…),
// each in its own file, so the client never grows into one giant class.
import { AgentsApi } from './agents';
import { getHealth, type Health } from './health';
import { Transport, type AgentCredentials, type FetchLike } from './transport';

export interface ExchangeClientOptions {
  /** e.g. `http://127.0.0.1:8080` */
  baseUrl: string;
  /** Operator bearer token; when set, requests are not agent-signed. */
  operatorToken?: string;
  /** Sign every request as this agent (DESIGN §3) when no operator token is given. */
  agent?: AgentCredentials;
  /** With an operator token: act on behalf of this agent (`X-Agent-Id`). */
  actingAgentId?: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  userAgent?: string;
  /** Clock for signature timestamps; defaults to the system clock. */
  now?: () => Date;
}

export class ExchangeClient {
  readonly agents: AgentsApi;
  protected readonly transport: Transport;

  constructor(readonly options: ExchangeClientOptions) {
    if (!options.baseUrl) throw new Error('ExchangeClient: baseUrl is required');
    this.transport = new Transport(options);
    this.agents = new AgentsApi(this.transport);
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
