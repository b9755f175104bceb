import type { IdempotencyClaim, AgentDirectory, AgentInfo, LedgerWriter } from '../domain/ledger.ports';
import { requestFingerprint, requireIdempotencyKey } from '../domain/idempotency';
import { walletErrors } from '../domain/wallet.errors';
import type { WalletReader } from '../data/wallet.reader';

/** What every wallet service needs. */
export interface WalletContext {
  writer: LedgerWriter;
  reader: WalletReader;
  agents: AgentDirectory;
  clock: () => Date;
  environment: 'sandbox' | 'mainnet';
}

/**
 * The wallet owner of a mutation: must exist and not be frozen — asked of identity now, never
 * from the cache, so the operator cannot move money a moment after the freeze answered.
 */
export async function activeAgent(ctx: WalletContext, agentId: string): Promise<AgentInfo> {
  const agent = await ctx.agents.current(agentId);
  if (agent.frozen) throw walletErrors.agentFrozen(agentId);
  return agent;
}

/** A required string field: present and at most `max` characters, else validation_failed. */
export function requireText(value: string | undefined, field: string, max = 255): string {
  if (value === undefined || value === '') throw walletErrors.validationFailed(`${field} is required`, { field });
  if (value.length > max) throw walletErrors.validationFailed(`${field} must be at most ${max} characters`, { field });
  return value;
}

/** An optional string field: absent → null, else at most `max` characters. */
export function optionalText(value: string | undefined, field: string, max = 255): string | null {
  if (value === undefined) return null;
  if (value.length > max) throw walletErrors.validationFailed(`${field} must be at most ${max} characters`, { field });
  return value;
}

/**
 * The idempotency claim of a mutation: scope = the wallet owner, the key as validated, and the
 * fingerprint of the request's proto3 JSON (every field but the key) with the operation name.
 */
export function claimFor(agentId: string, key: string | undefined, operation: string, requestJson: unknown): IdempotencyClaim {
  const valid = requireIdempotencyKey(key);
  return { scope: agentId, key: valid, operation, fingerprint: requestFingerprint(operation, requestJson as Record<string, unknown>) };
}
