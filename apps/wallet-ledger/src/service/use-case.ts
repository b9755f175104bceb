import type { IdempotencyClaim, AgentDirectory, AgentInfo, LedgerWriter } from '../domain/ledger.ports';
import { requestFingerprint, requireIdempotencyKey } from '../domain/idempotency';
import { walletErrors } from '../domain/wallet.errors';
import type { Keyed } from '../domain/wallet.commands';

/**
 * What every area's mutations need: the ledger writer, identity and the clock. Each area's
 * service declares its deps as this plus its own repository and response codecs: no shared
 * context object, a service sees only what it uses.
 */
export interface MutationDeps {
  writer: LedgerWriter;
  agents: AgentDirectory;
  clock: () => Date;
}

/**
 * The wallet owner of a mutation: must exist and not be frozen — asked of identity now, never
 * from the cache, so the operator cannot move money a moment after the freeze answered.
 */
export async function activeAgent(ctx: Pick<MutationDeps, 'agents'>, agentId: string): Promise<AgentInfo> {
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
export function claimFor(agentId: string, cmd: Keyed, operation: string): IdempotencyClaim {
  const valid = requireIdempotencyKey(cmd.idempotencyKey);
  return { scope: agentId, key: valid, operation, fingerprint: requestFingerprint(operation, cmd.requestJson) };
}
