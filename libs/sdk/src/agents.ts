// The Agents area of the REST API (brief "Public REST shapes for the Agents area").
import { buildRegistrationBody, publicKeyToBase64, type AgentKeys, type IdentityLevel } from './keys';
import { paginate, type Page, type PageParams } from './pagination';
import { pathSegment, type Transport } from './transport';
import type { api } from './wire';

export type Agent = api.Agent;
export type AgentKey = api.AgentKey;
export type IdentityTransition = api.IdentityTransition;
export type AgentStatus = Agent['status'];
export type KeyStatus = AgentKey['status'];

export interface RegisterAgentInput {
  agentId: string;
  keys: AgentKeys;
  additionalPublicKeys?: Array<Uint8Array | string>;
  identityLevel?: IdentityLevel;
  proofNonce?: string;
}

export interface ListAgentsParams extends PageParams {
  identityLevel?: IdentityLevel;
  status?: AgentStatus;
}

const agentPath = (agentId: string): string => `/v1/agents/${pathSegment(agentId)}`;

export class AgentsApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/agents (operator token) with a proof signed here; the private key is not sent. */
  registerAgent(input: RegisterAgentInput): Promise<Agent> {
    return this.transport.request<Agent>({ method: 'POST', path: '/v1/agents', body: buildRegistrationBody(input) satisfies api.RegisterAgentRequest });
  }

  getAgent(agentId: string): Promise<Agent> {
    return this.transport.request<Agent>({ method: 'GET', path: agentPath(agentId) });
  }

  listAgents(params: ListAgentsParams = {}): Promise<Page<Agent>> {
    return this.transport.request<Page<Agent>>({
      method: 'GET',
      path: '/v1/agents',
      query: { limit: params.limit, cursor: params.cursor, identity_level: params.identityLevel, status: params.status },
    });
  }

  /** Every agent matching the filter, page after page. */
  iterateAgents(params: Omit<ListAgentsParams, 'cursor'> = {}): AsyncGenerator<Agent, void, undefined> {
    return paginate((cursor) => this.listAgents({ ...params, cursor }));
  }

  changeIdentityLevel(agentId: string, identityLevel: IdentityLevel, reason: string): Promise<Agent> {
    return this.transport.request<Agent>({
      method: 'POST',
      path: `${agentPath(agentId)}/identity_level`,
      body: { identity_level: identityLevel, reason } satisfies api.ChangeIdentityLevelRequest,
    });
  }

  listIdentityTransitions(agentId: string, params: PageParams = {}): Promise<Page<IdentityTransition>> {
    return this.transport.request<Page<IdentityTransition>>({
      method: 'GET',
      path: `${agentPath(agentId)}/identity_transitions`,
      query: { limit: params.limit, cursor: params.cursor },
    });
  }

  iterateIdentityTransitions(agentId: string, params: Omit<PageParams, 'cursor'> = {}): AsyncGenerator<IdentityTransition, void, undefined> {
    return paginate((cursor) => this.listIdentityTransitions(agentId, { ...params, cursor }));
  }

  /** `pubkey` raw or standard base64; sent URL-encoded (`+`, `/`, `=` escaped). */
  revokeKey(agentId: string, pubkey: Uint8Array | string, reason: string): Promise<Agent> {
    return this.transport.request<Agent>({
      method: 'POST',
      path: `${agentPath(agentId)}/keys/${encodeURIComponent(publicKeyToBase64(pubkey))}/revoke`,
      body: { reason } satisfies api.RevokeAgentKeyRequest,
    });
  }

  freezeAgent(agentId: string, reason: string): Promise<Agent> {
    return this.transport.request<Agent>({ method: 'POST', path: `${agentPath(agentId)}/freeze`, body: { reason } satisfies api.FreezeAgentRequest });
  }

  unfreezeAgent(agentId: string, reason: string): Promise<Agent> {
    return this.transport.request<Agent>({ method: 'POST', path: `${agentPath(agentId)}/unfreeze`, body: { reason } satisfies api.UnfreezeAgentRequest });
  }
}
