import * as ed from '@noble/ed25519';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { L, le, numLE } from '../test/ed25519-forge';
import { verify, verifyWithAnyKeyAsync } from './ed25519';
import { toBase64 } from './encoding';
import { verifyBackend, verifyNative, verifyPortable } from './ed25519-backends';

// Copied byte-exact into test/vectors (origin, checksum and licence in its SOURCE.md), so a clone
// without ../shared still runs them; sign.input is stored gzipped (2.4 MB of hex → 0.8 MB).
const VECTORS = join(__dirname, '..', 'test', 'vectors', 'ed25519');
const hex = (value: string) => new Uint8Array(Buffer.from(value, 'hex'));

interface Vector {
  line: number;
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

function signInput(): Vector[] {
  const lines = gunzipSync(readFileSync(join(VECTORS, 'sign.input.gz'))).toString('utf8').split('\n').filter((l) => l.length > 0);
  return lines.map((line, i) => {
    const [sk, pk, m, sm, rest] = line.split(':');
    expect([sk.slice(64), sm.slice(128), rest]).toEqual([pk, m, '']);
    return { line: i + 1, publicKey: hex(pk), message: hex(m), signature: hex(sm.slice(0, 128)) };
  });
}

function withBit(bytes: Uint8Array, bit: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[bit >> 3] ^= 1 << (bit & 7);
  return out;
}

function withS(signature: Uint8Array, s: bigint): Uint8Array {
  const out = Uint8Array.from(signature);
  out.set(le(s), 32);
  return out;
}

/** Each backend's answer; they must agree, and verify() must give the same. */
function answers(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const native = verifyNative(signature, message, publicKey);
  const portable = verifyPortable(signature, message, publicKey);
  expect({ native, portable, verify: verify(signature, message, publicKey) }).toEqual({ native: portable, portable, verify: portable });
  return portable;
}

/** The signature (valid), and the five tamperings every vector must fail under. */
function casesOf(v: Vector): Array<[string, Uint8Array, Uint8Array, boolean]> {
  const s = numLE(v.signature.subarray(32));
  return [
    ['as signed', v.signature, v.message, true],
    ['message bit', v.signature, v.message.length > 0 ? withBit(v.message, (v.line * 7) % (v.message.length * 8)) : Uint8Array.of(0), false],
    ['R bit', withBit(v.signature, v.line % 255), v.message, false],
    ['S bit', withBit(v.signature, 256 + (v.line % 252)), v.message, false],
    ['S + L', withS(v.signature, s + L), v.message, false],
    ['S high bits', withS(v.signature, s | (7n << 253n)), v.message, false],
  ];
}

/** Both backends and verify() give each case its expected answer. */
function checkVector(v: Vector): void {
  for (const [what, signature, message, valid] of casesOf(v)) {
    expect([v.line, what, answers(signature, message, v.publicKey)]).toEqual([v.line, what, valid]);
  }
}

/** verifyWithAnyKeyAsync (OpenSSL on the threadpool) gives each case the same answer. */
async function checkVectorAsync(v: Vector): Promise<void> {
  const key = toBase64(v.publicKey);
  for (const [what, signature, message, valid] of casesOf(v)) {
    const found = await verifyWithAnyKeyAsync(toBase64(signature), message, [key]);
    expect([v.line, what, found]).toEqual([v.line, what, valid ? key : null]);
  }
}

describe('ed25519 backends on sign.input (all 1,024 lines)', () => {
  const vectors = signInput();
  const chunks = Array.from({ length: vectors.length / 64 }, (_, i) => [i * 64 + 1, vectors.slice(i * 64, i * 64 + 64)] as const);

  it('should read 1,024 well-formed lines', () => {
    expect(vectors).toHaveLength(1024);
    expect(vectors[0].message).toHaveLength(0);
    expect(vectors[1023].message).toHaveLength(1023);
  });

  it('should run verify() on OpenSSL in this runtime', () => {
    expect(verifyBackend).toBe('native');
  });

  it.each(chunks)('lines %i..+63: both verify true and refuse a flipped message, R or S bit, S + L and high S bits', (_first, chunk) => {
    for (const v of chunk) checkVector(v);
  });

  it.each(chunks)('lines %i..+63: verifyWithAnyKeyAsync gives the same answers off the event loop', async (_first, chunk) => {
    for (const v of chunk) await checkVectorAsync(v);
  });

  it('should agree with noble strict verify on every valid line', () => {
    for (const v of vectors) expect([v.line, ed.verify(v.signature, v.message, v.publicKey, { zip215: false })]).toEqual([v.line, true]);
  });
});

describe('ed25519 backends on RFC 8032 §7.1', () => {
  const vectors: Array<{ name: string; public_key_hex: string; message_hex: string; signature_hex: string }> = JSON.parse(
    readFileSync(join(VECTORS, 'rfc8032-7.1.json'), 'utf8'),
  );

  it.each(vectors.map((v, i) => [v.name, { line: i + 1, publicKey: hex(v.public_key_hex), message: hex(v.message_hex), signature: hex(v.signature_hex) }] as const))(
    '%s: both verify true and refuse every tampering, in place and off the event loop',
    async (_name, v) => {
      checkVector(v);
      await checkVectorAsync(v);
    },
  );
});
