import { fromBase64, fromBase64Url, PUBLIC_KEY_LENGTH } from '@exchange/crypto';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/** The 32 bytes a string spells as standard base64, base64url or hex; undefined otherwise. */
export function keyBytesOf(value: string): Uint8Array | undefined {
  const text = value.trim();
  if (HEX_KEY.test(text)) return new Uint8Array(Buffer.from(text, 'hex'));
  for (const decode of [fromBase64, fromBase64Url]) {
    try {
      const bytes = decode(text);
      if (bytes.length === PUBLIC_KEY_LENGTH) return bytes;
    } catch {
      // not this encoding
    }
  }
  return undefined;
}

/**
 * True when `address` is one of the agent's signing keys written in any of the encodings
 * (base64, base64url, hex): paying out to a signing key would publish it as an address.
 */
export function isSigningKeyReuse(address: string, agentPubkeysB64: readonly string[]): boolean {
  const candidate = keyBytesOf(address);
  if (!candidate) return false;
  return agentPubkeysB64.some((pk) => {
    const key = keyBytesOf(pk);
    return key !== undefined && Buffer.from(key).equals(Buffer.from(candidate));
  });
}
