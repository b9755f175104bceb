// The identity domain's own types: plain data, independent of proto and Prisma shapes.

export const IDENTITY_LEVELS = [
  'SANDBOX_UNVERIFIED',
  'MAINNET_BASIC',
  'MAINNET_ATTESTED',
  'MAINNET_VERIFIED',
  'MAINNET_INSTITUTIONAL',
] as const;
export type IdentityLevel = (typeof IDENTITY_LEVELS)[number];

export type AgentStatus = 'active' | 'frozen';
export type KeyStatus = 'active' | 'revoked';
export type ExchangeEnvironment = 'sandbox' | 'mainnet';

export interface AgentKey {
  pubkey: string;
  primary: boolean;
  status: KeyStatus;
  addedAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
}

export interface Agent {
  agentId: string;
  primaryPubkey: string;
  /** Primary first, then the other keys in the order they were added (revoked ones included). */
  keys: AgentKey[];
  identityLevel: IdentityLevel;
  status: AgentStatus;
  frozenReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface IdentityTransition {
  transitionId: string;
  agentId: string;
  fromLevel: IdentityLevel;
  toLevel: IdentityLevel;
  reason: string;
  actor: string;
  createdAt: Date;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}
