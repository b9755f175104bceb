import { createHash, timingSafeEqual } from 'node:crypto';

/** A configured operator token; `name` goes into the `x-actor` metadata (`operator:<name>`). */
export interface OperatorToken {
  name: string;
  token: string;
}

export const MIN_OPERATOR_TOKEN_LENGTH = 16;

/** Parses `OPERATOR_TOKENS` (`name=token,name2=token2`); throws naming the faulty entry. */
export function parseOperatorTokens(value: string): OperatorToken[] {
  const tokens: OperatorToken[] = [];
  const names = new Set<string>();
  for (const entry of value.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim() : '';
    const token = eq > 0 ? entry.slice(eq + 1).trim() : '';
    if (!/^[a-z0-9][a-z0-9._-]{0,62}$/.test(name)) {
      throw new Error(`OPERATOR_TOKENS: entry ${tokens.length + 1} needs a name of [a-z0-9._-] before "="`);
    }
    if (token.length < MIN_OPERATOR_TOKEN_LENGTH) {
      throw new Error(`OPERATOR_TOKENS: the token of "${name}" must have at least ${MIN_OPERATOR_TOKEN_LENGTH} characters`);
    }
    if (names.has(name)) throw new Error(`OPERATOR_TOKENS: "${name}" appears twice`);
    names.add(name);
    tokens.push({ name, token });
  }
  if (tokens.length === 0) throw new Error('OPERATOR_TOKENS: no token given');
  return tokens;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Checks a presented bearer token against every configured token in constant time: both sides are
 * hashed to 32 bytes (so lengths leak nothing) and every candidate is compared, match or not.
 */
export class OperatorTokenVerifier {
  private readonly digests: Array<{ name: string; digest: Buffer }>;

  constructor(tokens: OperatorToken[]) {
    if (tokens.length === 0) throw new Error('at least one operator token is required');
    this.digests = tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));
  }

  /**
   * The operator's name when the token matches one (plus a short hex id of the token's hash, fit
   * for rate-limit keys and logs), else null.
   */
  match(presented: string): { name: string; tokenId: string } | null {
    const candidate = digest(presented);
    let found: string | null = null;
    for (const { name, digest: expected } of this.digests) {
      if (timingSafeEqual(candidate, expected) && found === null) found = name;
    }
    return found === null ? null : { name: found, tokenId: candidate.toString('hex', 0, 12) };
  }
}
