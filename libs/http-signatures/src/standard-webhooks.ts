import { createPublicKey, generateKeyPairSync, KeyObject, randomBytes, sign as edSign, timingSafeEqual, verify as edVerify } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { bodyBytes, nowSeconds, type BodyInput, type Clock } from './body';
import { headerValue, type HeaderMap } from './headers';
import { checkedVerificationKey, ed25519PrivateKeyFromSeed, ed25519PublicKeyFromRaw, ed25519RawPublicKey } from './keys';
import { fail, type Failure } from './results';

/**
 * Standard Webhooks 1.0.0. `v1` (HMAC-SHA256) signatures are computed by the standardwebhooks
 * library; `v1a` (ed25519) is hand-written because that library skips every version but `v1`.
 *
 * Keys: `whsec_<base64>` (or bare base64, or a secret KeyObject) → v1; `whpk_<base64 32-byte public
 * key>` or an ed25519 public KeyObject → v1a verification; `whsk_<base64 32-byte seed, or 64-byte
 * seed‖public>` or an ed25519 private KeyObject → v1a signing (and verification).
 */
export type StandardWebhookKey = string | KeyObject;

export const STANDARD_WEBHOOK_TOLERANCE_SEC = 300;

type ParsedKey = { version: 'v1'; webhook: Webhook } | { version: 'v1a'; publicKey: KeyObject; privateKey?: KeyObject };

function decodeBase64(text: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error('key is not base64');
  return Buffer.from(text, 'base64');
}

function parseKey(key: StandardWebhookKey): ParsedKey {
  if (key instanceof KeyObject) {
    if (key.type === 'secret') return { version: 'v1', webhook: new Webhook(new Uint8Array(key.export()), { format: 'raw' }) };
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('v1a keys are ed25519');
    return key.type === 'private' ? { version: 'v1a', publicKey: createPublicKey(key), privateKey: key } : { version: 'v1a', publicKey: checkedVerificationKey(key) };
  }
  if (typeof key !== 'string' || !key) throw new Error('empty key');
  if (key.startsWith('whpk_')) return { version: 'v1a', publicKey: ed25519PublicKeyFromRaw(decodeBase64(key.slice(5))) };
  if (key.startsWith('whsk_')) {
    const raw = decodeBase64(key.slice(5));
    if (raw.length !== 32 && raw.length !== 64) throw new Error('whsk_ key must hold 32 or 64 bytes');
    const privateKey = ed25519PrivateKeyFromSeed(raw.subarray(0, 32));
    return { version: 'v1a', publicKey: createPublicKey(privateKey), privateKey };
  }
  return { version: 'v1', webhook: new Webhook(key) };
}

function signedContent(id: string, timestamp: number, body: BodyInput): Buffer {
  return Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), bodyBytes(body)]);
}

export interface SignStandardWebhookInput {
  id: string;
  /** Unix seconds, or a Date (default: now). */
  timestamp?: number | Date;
  body: BodyInput;
  /** One key, or several (rotation): one signature each, space-separated. */
  keys: StandardWebhookKey | StandardWebhookKey[];
}

/** The three headers of a Standard Webhooks delivery (for tests and the sandbox merchant). */
export function signStandardWebhook(input: SignStandardWebhookInput): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const timestamp = input.timestamp === undefined ? nowSeconds() : input.timestamp instanceof Date ? Math.floor(input.timestamp.getTime() / 1000) : input.timestamp;
  const signatures = (Array.isArray(input.keys) ? input.keys : [input.keys]).map((key) => {
    const parsed = parseKey(key);
    if (parsed.version === 'v1') return parsed.webhook.sign(input.id, new Date(timestamp * 1000), Buffer.from(bodyBytes(input.body)));
    if (!parsed.privateKey) throw new Error('a whpk_ public key cannot sign');
    return `v1a,${edSign(null, signedContent(input.id, timestamp, input.body), parsed.privateKey).toString('base64')}`;
  });
  return { 'webhook-id': input.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}

export interface VerifyStandardWebhookInput {
  headers: HeaderMap;
  body: BodyInput;
  /** Every key the sender may be using (rotation); a match with any one is enough. */
  secretOrPublicKey: StandardWebhookKey | StandardWebhookKey[];
  now?: Clock;
  /** Allowed distance of webhook-timestamp from now, seconds (default 300, as every reference library). */
  toleranceSec?: number;
}

export type StandardWebhookVerification = { valid: true; version: 'v1' | 'v1a'; webhookId: string; timestamp: number } | Failure;

/** Verifies `webhook-signature` (`v1,` and `v1a,` entries, space-separated). Never throws. */
export function verifyStandardWebhook(input: VerifyStandardWebhookInput): StandardWebhookVerification {
  try {
    const id = headerValue(input.headers, 'webhook-id');
    const rawTimestamp = headerValue(input.headers, 'webhook-timestamp');
    const signatureHeader = headerValue(input.headers, 'webhook-signature');
    if (signatureHeader === undefined) return fail('missing_signature');
    if (id === undefined || rawTimestamp === undefined) return fail('missing_header', 'webhook-id and webhook-timestamp are required');
    if (!/^\d{1,12}$/.test(rawTimestamp.trim())) return fail('malformed_signature', 'webhook-timestamp is not unix seconds');
    const timestamp = Number(rawTimestamp.trim());
    const now = nowSeconds(input.now);
    const tolerance = input.toleranceSec ?? STANDARD_WEBHOOK_TOLERANCE_SEC;
    if (now - timestamp > tolerance) return fail('expired', 'webhook-timestamp too old');
    if (timestamp - now > tolerance) return fail('not_yet_valid', 'webhook-timestamp too new');

    let keys: ParsedKey[];
    try {
      keys = (Array.isArray(input.secretOrPublicKey) ? input.secretOrPublicKey : [input.secretOrPublicKey]).map(parseKey);
    } catch (error) {
      return fail('invalid_key', error instanceof Error ? error.message : undefined);
    }
    const offered = signatureHeader.split(' ').filter(Boolean).map((entry) => {
      const comma = entry.indexOf(',');
      return comma < 0 ? { version: entry, value: '' } : { version: entry.slice(0, comma), value: entry.slice(comma + 1) };
    });
    const usable = offered.filter((s) => keys.some((k) => k.version === s.version));
    if (!offered.some((s) => s.version === 'v1' || s.version === 'v1a')) return fail('malformed_signature', 'no v1 or v1a signature');
    if (!usable.length) return fail('unknown_key', 'no key for the signature versions offered');

    const content = signedContent(id, timestamp, input.body);
    for (const key of keys) {
      for (const candidate of usable.filter((s) => s.version === key.version)) {
        if (key.version === 'v1') {
          const expected = Buffer.from(key.webhook.sign(id, new Date(timestamp * 1000), Buffer.from(bodyBytes(input.body))));
          const given = Buffer.from(`v1,${candidate.value}`);
          if (given.length === expected.length && timingSafeEqual(given, expected)) return { valid: true, version: 'v1', webhookId: id, timestamp };
        } else {
          const sig = Buffer.from(candidate.value, 'base64');
          if (sig.length === 64 && edVerify(null, content, key.publicKey, sig)) return { valid: true, version: 'v1a', webhookId: id, timestamp };
        }
      }
    }
    return fail('bad_signature');
  } catch (error) {
    return fail('invalid_input', error instanceof Error ? error.message.slice(0, 200) : undefined);
  }
}

/** A fresh `whsec_` secret (32 random bytes; the spec allows 24–64). */
export function generateStandardWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A fresh v1a pair: `whsk_<base64 seed>` to sign, `whpk_<base64 public key>` to publish. */
export function generateStandardWebhookKeyPair(): { secretKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  return { secretKey: `whsk_${seed.toString('base64')}`, publicKey: `whpk_${ed25519RawPublicKey(publicKey).toString('base64')}` };
}
