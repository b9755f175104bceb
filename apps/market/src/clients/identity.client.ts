import { identityV1 } from '@exchange/proto';
import type { AgentInfo } from '@exchange/identity-client';

/** identity's level as the market needs it: a SANDBOX_UNVERIFIED buyer's contracts are sandbox. */
export function isSandboxUnverified(agent: Pick<AgentInfo, 'level'>): boolean {
  return agent.level === identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED;
}
