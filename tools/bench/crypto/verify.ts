import * as ed from '@noble/ed25519';
import { ed25519PublicKeyObject, generateKeyPair, sign, verify } from '@exchange/crypto';
import { createPublicKey, verify as opensslVerify } from 'node:crypto';
import { cpus } from 'node:os';
// The backends are internal to libs/crypto (callers use verify()); the benchmark compares them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { verifyBackend, verifyNative, verifyPortable } from '../../../libs/crypto/src/ed25519-backends';

// Issue 20 part 1: ed25519 verifications per second on one core, every backend in the same run so
// the ratios hold on a noisy machine. Rows: noble's own strict verify (what verify() was before),
// the portable backend (noble point arithmetic, cofactorless), OpenSSL with a KeyObject built per
// call, the native backend (policy + cached KeyObject), and verify() itself. Settings: BENCH_SECONDS
// per row (2), KEYS distinct signers cycled through (64), MESSAGE_BYTES (256, about a signed
// request's canonical payload).

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const KEYS = Number(process.env.KEYS ?? 64);
const MESSAGE_BYTES = Number(process.env.MESSAGE_BYTES ?? 256);

interface Case {
  signature: Uint8Array;
  message: Uint8Array;
  publicKey: Uint8Array;
}

const cases: Case[] = Array.from({ length: KEYS }, (_, i) => {
  const { privateKey, publicKey } = generateKeyPair();
  const message = new Uint8Array(MESSAGE_BYTES).fill(i & 0xff);
  return { signature: sign(message, privateKey), message, publicKey };
});

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const opensslDer = (c: Case) =>
  opensslVerify(null, c.message, createPublicKey({ key: Buffer.concat([SPKI_PREFIX, c.publicKey]), format: 'der', type: 'spki' }), c.signature);
const opensslJwk = (c: Case) => opensslVerify(null, c.message, ed25519PublicKeyObject(c.publicKey), c.signature);

const rows: Array<[string, (c: Case) => boolean]> = [
  ['noble ed.verify (zip215: false), the old verify()', (c) => ed.verify(c.signature, c.message, c.publicKey, { zip215: false })],
  ['verifyPortable (noble points, cofactorless)', (c) => verifyPortable(c.signature, c.message, c.publicKey)],
  ['OpenSSL, DER SPKI import per call (before 975cad4)', opensslDer],
  ['OpenSSL, JWK import per call (a first verification)', opensslJwk],
  ['verifyNative (policy + cached KeyObject)', (c) => verifyNative(c.signature, c.message, c.publicKey)],
  [`verify() (backend: ${verifyBackend})`, (c) => verify(c.signature, c.message, c.publicKey)],
];

function measure(fn: (c: Case) => boolean): number {
  for (let i = 0; i < Math.min(200, KEYS * 2); i++) if (!fn(cases[i % KEYS])) throw new Error('a valid signature failed');
  const end = process.hrtime.bigint() + BigInt(Math.round(SECONDS * 1e9));
  let done = 0;
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() < end) {
    for (let i = 0; i < 16; i++, done++) fn(cases[done % KEYS]);
  }
  return done / (Number(process.hrtime.bigint() - start) / 1e9);
}

const results = rows.map(([name, fn]) => [name, measure(fn)] as const);
const baseline = results[0][1];
console.log(`ed25519 verify, one core (${cpus()[0]?.model ?? 'unknown cpu'}, node ${process.version}), ${KEYS} keys, ${MESSAGE_BYTES}-byte messages, ${SECONDS}s per row`);
console.log('| backend | verifies/s | × noble |');
console.log('|---|---:|---:|');
for (const [name, rate] of results) console.log(`| ${name} | ${Math.round(rate).toLocaleString('en')} | ${(rate / baseline).toFixed(1)} |`);
