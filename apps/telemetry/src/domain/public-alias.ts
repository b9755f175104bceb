// A private buyer's alias can change after an event was recorded (the market's
// buyer_alias_updated); the public feed shows the contract's alias as it is now, so an old alias
// cannot link the buyer's earlier and later activity once the buyer asked for a new one.

/**
 * What ingest stores in a public part where a private buyer acted (a dispute's opened_by, a
 * thread's created_by, a post's author, a buyer-verified report's verifier_id, the buyer's id in
 * text): replaced by the contract's alias now when read. `$` is in no id, so it marks nothing else.
 */
export const PRIVATE_BUYER_MARK = '$buyer_alias';

/** Keys an event's public part names the buyer's alias by (proto JSON and snake_case). */
const ALIAS_KEYS = new Set(['buyer_alias', 'buyerAlias']);

/**
 * A copy of `value` (parsed JSON) where every buyer-alias key, at any depth, holds `alias`
 * (null when the contract has none) and every PRIVATE_BUYER_MARK in a string becomes the alias
 * ('' when none). Keys that are absent stay absent; nothing else changes.
 */
export function withCurrentAlias(value: unknown, alias: string | null): unknown {
  if (typeof value === 'string') return value.includes(PRIVATE_BUYER_MARK) ? value.split(PRIVATE_BUYER_MARK).join(alias ?? '') : value;
  if (Array.isArray(value)) return value.map((item) => withCurrentAlias(item, alias));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    out[key] = ALIAS_KEYS.has(key) ? alias : withCurrentAlias(inner, alias);
  }
  return out;
}
