/** An agent's two balances per currency; CHECK balance >= 0 in the database. */
export type AgentAccountKind = 'available' | 'held';
/** One of each per currency, owned by SYSTEM_OWNER; their balances mirror money in and out. */
export type SystemAccountKind = 'faucet' | 'deposits_clearing' | 'withdrawals_clearing' | 'fees';
/** A merchant's settlement account per currency (commerce purchases); CHECK balance >= 0. */
export type MerchantAccountKind = 'merchant_settlement';
export type AccountKind = AgentAccountKind | SystemAccountKind | MerchantAccountKind;

/** Owner of the system accounts; agent ids always contain ":agent:", so never collide with it. */
export const SYSTEM_OWNER = 'system';

export interface AccountRef {
  owner: string;
  currency: string;
  kind: AccountKind;
}

export function agentAccount(agentId: string, currency: string, kind: AgentAccountKind): AccountRef {
  return { owner: agentId, currency, kind };
}

export function systemAccount(currency: string, kind: SystemAccountKind): AccountRef {
  return { owner: SYSTEM_OWNER, currency, kind };
}

/** `owner` is "merchant:<domain>" (merchantOwner, merchant.ts). */
export function merchantAccount(owner: string, currency: string): AccountRef {
  return { owner, currency, kind: 'merchant_settlement' };
}

/**
 * The account's primary key, derived so the hot path needs no id lookup: "<owner>/<currency>/<kind>".
 * Agent ids, merchant domains and currencies contain no "/", so the mapping is one to one.
 */
export function accountId(ref: AccountRef): string {
  return `${ref.owner}/${ref.currency}/${ref.kind}`;
}

export function isAgentKind(kind: AccountKind): kind is AgentAccountKind {
  return kind === 'available' || kind === 'held';
}
