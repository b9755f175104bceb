import type { KillSwitch } from './controls';
import type { IdentityLevel } from './identity-levels';
import type { Posting } from './postings';
import type { Receipt } from './receipt';
import type { StoredError } from './wallet.errors';
import type { Deposit, FaucetGrant, Hold, PayoutDestination, Transfer, Withdrawal } from './wallet.model';

/** Who the request is for: the idempotency scope is the wallet owner. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  fingerprint: string;
  operation: string;
}

export type EntityWrite =
  | { table: 'transfers'; value: Transfer }
  | { table: 'faucet_grants'; value: FaucetGrant }
  | { table: 'holds'; value: Hold }
  | { table: 'deposits'; value: Deposit }
  | { table: 'withdrawals'; value: Withdrawal }
  | { table: 'payout_destinations'; value: PayoutDestination }
  | { table: 'receipts'; value: Receipt };

/**
 * One mutation, fully computed by the service, for the store to commit atomically or refuse
 * (README.md "Hot path"). Everything that can change concurrently is re-checked by the store
 * under row locks: controls, the stored idempotency outcome, the entity's status (guard), a
 * daily counter (expect), and that no agent balance goes below zero.
 */
export interface MutationPlan {
  now: Date;
  /** A kill switch this mutation obeys (read-only mode always applies). */
  control?: KillSwitch;
  idempotency?: IdempotencyClaim;
  /** Record this business error as the key's outcome instead of applying anything. */
  error?: StoredError;
  guard?: { entity: 'hold' | 'deposit' | 'withdrawal'; id: string; status: string };
  counter?: { key: string; day: string; expect: bigint | null; delta: bigint };
  entry?: { entryId: string; kind: string; currency: string; postings: Posting[] };
  writes?: EntityWrite[];
  /** Event envelopes (libs/events, built by each area's <area>.events.ts) for the outbox, as JSON. */
  events?: object[];
  /** The response to store with the key (JSON), replayed for the same key and request. */
  response?: unknown;
}

export type ApplyOutcome =
  | { kind: 'applied' }
  | { kind: 'recorded' }
  | { kind: 'replayed'; fingerprint: string; response: unknown; error: StoredError | null }
  | { kind: 'blocked'; reason: 'read_only' | `kill_switch:${KillSwitch}` }
  | { kind: 'guard_failed'; current: string | null }
  | { kind: 'counter_stale'; current: bigint }
  | { kind: 'insufficient'; balance: bigint };

export interface LedgerWriter {
  apply(plan: MutationPlan): Promise<ApplyOutcome>;
  /**
   * Runs `fn` in one transaction that first locks (creating if needed) the daily counter row and
   * hands over its value; `tx.apply` joins that transaction. Caps and limits are decided under
   * this lock, so concurrent requests against one allowance queue instead of racing.
   */
  withCounter<T>(key: string, day: string, fn: (used: bigint, tx: Pick<LedgerWriter, 'apply'>) => Promise<T>): Promise<T>;
}

/** What wallet-ledger needs to know about an agent (from identity, cached). */
export interface AgentInfo {
  agentId: string;
  level: IdentityLevel;
  frozen: boolean;
  /** Base64 public keys, revoked ones included (a revoked key is still a key). */
  pubkeys: string[];
}

export interface AgentDirectory {
  /** Possibly cached (existence, a recipient's details). Throws NOT_FOUND agent_not_found for an unknown agent. */
  get(agentId: string): Promise<AgentInfo>;
  /** Identity's answer now, never a cached one: what decides whether an agent's money may move. */
  current(agentId: string): Promise<AgentInfo>;
}
