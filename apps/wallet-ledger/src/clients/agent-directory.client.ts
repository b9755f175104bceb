import { AgentDirectory as IdentityDirectory, type IdentityClient } from '@exchange/identity-client';
import type { Logger } from '@exchange/platform';
import { identityV1, identityV1Wire } from '@exchange/proto';
import type { AgentDirectory, AgentInfo } from '../domain/ledger.ports';

export type { IdentityClient } from '@exchange/identity-client';

/** Identity's agent as the ledger rules need it: the level by name, every key (revoked ones too). */
export function toAgentInfo(agent: identityV1.Agent): AgentInfo {
  return {
    agentId: agent.agentId,
    level: identityV1Wire.identityLevel.toWire(agent.identityLevel) ?? 'SANDBOX_UNVERIFIED',
    frozen: agent.status === identityV1.AgentStatus.AGENT_STATUS_FROZEN,
    pubkeys: agent.keys.map((k) => k.pubkey),
  };
}

/**
 * The shared identity client (libs/identity-client) with the wallet's view of an agent. `get`
 * reuses each answer for `ttlMs` (AGENT_CACHE_TTL_MS): existence and recipients. `current`
 * always asks identity: the wallet owner of a mutation, so a freeze stops its money at once, not
 * within ttlMs (issue 12 finding 14).
 */
export class CachedAgentDirectory extends IdentityDirectory<AgentInfo> implements AgentDirectory {
  constructor(client: IdentityClient, ttlMs: number, logger: Logger, now: () => number = Date.now) {
    super(client, ttlMs, logger, now, toAgentInfo);
  }
}
