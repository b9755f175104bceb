import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalBytes, canonicalize, publicKeyFromPrivate, sign, verify } from '../src';

// Vectors are copied byte-exact into test/vectors (see each SOURCE.md for origin and licence).
const JCS_DIR = join(__dirname, 'vectors', 'jcs');
const ED25519_FILE = join(__dirname, 'vectors', 'ed25519', 'rfc8032-7.1.json');

describe('RFC 8785 (JCS) vectors', () => {
  const names = readdirSync(join(JCS_DIR, 'input')).filter((f) => f.endsWith('.json'));

  it('should find all six upstream vectors', () => {
    expect(names.sort()).toEqual(['arrays.json', 'french.json', 'structures.json', 'unicode.json', 'values.json', 'weird.json']);
  });

  // values.json (333333333.33333329, 1E30, 4.50, 2e-3, 1e-27) and structures.json (56.0) hold the
  // non-integer number spellings. Legacy v1 prints numbers with JSON.stringify, i.e. ES
  // Number::toString, which is exactly RFC 8785 §3.2.2.3, so every vector matches byte for byte
  // and none needs a special case.
  it.each(names)('should canonicalize %s byte-exactly', (name) => {
    const input: unknown = JSON.parse(readFileSync(join(JCS_DIR, 'input', name), 'utf8'));
    const expected = readFileSync(join(JCS_DIR, 'output', name));
    expect(Buffer.from(canonicalBytes(input)).equals(expected)).toBe(true);
    expect(canonicalize(input)).toBe(expected.toString('utf8'));
  });
});

interface Rfc8032Vector {
  name: string;
  secret_key_hex: string;
  public_key_hex: string;
  message_hex: string;
  signature_hex: string;
}

describe('RFC 8032 §7.1 Ed25519 vectors', () => {
  const vectors: Rfc8032Vector[] = JSON.parse(readFileSync(ED25519_FILE, 'utf8'));
  const hex = (value: string) => new Uint8Array(Buffer.from(value, 'hex'));

  it('should load the five vectors', () => {
    expect(vectors.map((v) => v.name)).toEqual(['TEST 1', 'TEST 2', 'TEST 3', 'TEST 1024', 'TEST SHA(abc)']);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s: derives the public key and signature', (_name, v) => {
    expect(Buffer.from(publicKeyFromPrivate(hex(v.secret_key_hex))).toString('hex')).toBe(v.public_key_hex);
    expect(Buffer.from(sign(hex(v.message_hex), hex(v.secret_key_hex))).toString('hex')).toBe(v.signature_hex);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s: verifies, and rejects a flipped message bit', (_name, v) => {
    const message = hex(v.message_hex);
    expect(verify(hex(v.signature_hex), message, hex(v.public_key_hex))).toBe(true);
    const altered = message.length > 0 ? Uint8Array.from(message) : new TextEncoder().encode('x');
    if (message.length > 0) altered[altered.length - 1] ^= 1;
    expect(verify(hex(v.signature_hex), altered, hex(v.public_key_hex))).toBe(false);
  });
});
