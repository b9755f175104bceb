import { createHash, timingSafeEqual } from 'node:crypto';
import { parseDictionary } from 'structured-headers';
import { bodyBytes, type BodyInput } from './body';
import { fail, type Failure } from './results';

/**
 * RFC 9530 Content-Digest. Hand-written: http-message-signatures only signs the header as an
 * ordinary field and neither computes nor checks it (the structured-field parsing is the
 * structured-headers library's).
 */
export type DigestAlgorithm = 'sha-256' | 'sha-512';

const HASH: Record<DigestAlgorithm, string> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };

/** `sha-256=:<base64 of the hash of the raw body>:` (the header value, one dictionary member). */
export function contentDigest(body: BodyInput, alg: DigestAlgorithm = 'sha-256'): string {
  if (!(alg in HASH)) throw new Error(`unsupported digest algorithm ${String(alg)}`);
  return `${alg}=:${createHash(HASH[alg]).update(bodyBytes(body)).digest('base64')}:`;
}

export type DigestVerification = { valid: true; algorithms: DigestAlgorithm[] } | Failure;

/**
 * Checks a Content-Digest header against the raw body. Members with algorithms we do not know
 * (RFC 9530 lists deprecated ones: md5, sha, unixsum, …) are ignored; at least one sha-256 or
 * sha-512 member must be present and every such member must match.
 */
export function verifyContentDigest(header: string | undefined, body: BodyInput): DigestVerification {
  if (header === undefined || header.trim() === '') return fail('missing_digest');
  let members: ReturnType<typeof parseDictionary>;
  try {
    members = parseDictionary(header);
  } catch {
    return fail('malformed_digest', 'Content-Digest is not a structured-field dictionary');
  }
  const bytes = bodyBytes(body);
  const checked: DigestAlgorithm[] = [];
  for (const [name, member] of members) {
    if (!Object.prototype.hasOwnProperty.call(HASH, name)) continue;
    const alg = name as DigestAlgorithm;
    const value = member[0];
    if (!(value instanceof ArrayBuffer)) return fail('malformed_digest', `${alg} is not a byte sequence`);
    const expected = createHash(HASH[alg]).update(bytes).digest();
    const given = Buffer.from(value);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail('digest_mismatch', `${alg} does not match the body`);
    checked.push(alg);
  }
  if (!checked.length) return fail('unsupported_digest', 'Content-Digest has no sha-256 or sha-512 member');
  return { valid: true, algorithms: checked };
}
