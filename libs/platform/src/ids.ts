import { randomFillSync } from 'node:crypto';

export type IdPrefix =
  | 'ctr' | 'lst' | 'ofr' | 'res' | 'dsp' | 'vrf' | 'vrp' | 'thr' | 'pst' | 'hld' | 'dep' | 'pod' | 'wdr'
  | 'rcpt' | 'cs' | 'deal' | 'case' | 'run' | 'tsk' | 'sub' | 'mdt' | 'int' | 'prj' | 'evt' | 'itr' | 'req'
  | 'trf' | 'jrn' | 'fgr' | 'dlv' | 'ack' | 'dkt' | 'aud' | 'rld' | 'fix' | 'evd' | 'fbk' | 'sig' | 'prc' | 'pxc';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

// Random bytes are drawn in batches: one syscall per 128 ids keeps id generation off the profile.
const pool = new Uint8Array(8 * 128);
let poolOffset = pool.length;
function randomUint32(): number {
  if (poolOffset + 4 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const v = ((pool[poolOffset] << 24) | (pool[poolOffset + 1] << 16) | (pool[poolOffset + 2] << 8) | pool[poolOffset + 3]) >>> 0;
  poolOffset += 4;
  return v;
}

// State of the last id (RFC 9562 §6.2 method 2, "monotonic random"): within one millisecond the
// 74 random bits are incremented instead of redrawn, so ids from this process sort in creation
// order. A clock that steps back keeps the last timestamp; overflow carries into the timestamp.
let lastMs = -1;
let randA = 0; // 12 bits
let randBHi = 0; // 30 bits
let randBLo = 0; // 32 bits

const bytes = new Uint8Array(16);

/** A UUIDv7 (RFC 9562): 48-bit unix ms, version 7, 74 random bits, variant 10; monotonic in-process. */
export function uuidv7(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    randA = randomUint32() & 0xfff;
    randBHi = randomUint32() & 0x3fffffff;
    randBLo = randomUint32();
  } else {
    increment();
  }
  const ms = lastMs;
  const high = Math.floor(ms / 0x100000000); // top 16 of the 48 bits
  const low = ms >>> 0;
  bytes[0] = (high >>> 8) & 0xff;
  bytes[1] = high & 0xff;
  bytes[2] = (low >>> 24) & 0xff;
  bytes[3] = (low >>> 16) & 0xff;
  bytes[4] = (low >>> 8) & 0xff;
  bytes[5] = low & 0xff;
  bytes[6] = 0x70 | (randA >>> 8);
  bytes[7] = randA & 0xff;
  bytes[8] = 0x80 | (randBHi >>> 24);
  bytes[9] = (randBHi >>> 16) & 0xff;
  bytes[10] = (randBHi >>> 8) & 0xff;
  bytes[11] = randBHi & 0xff;
  bytes[12] = (randBLo >>> 24) & 0xff;
  bytes[13] = (randBLo >>> 16) & 0xff;
  bytes[14] = (randBLo >>> 8) & 0xff;
  bytes[15] = randBLo & 0xff;
  return (
    HEX[bytes[0]] + HEX[bytes[1]] + HEX[bytes[2]] + HEX[bytes[3]] + '-' +
    HEX[bytes[4]] + HEX[bytes[5]] + '-' + HEX[bytes[6]] + HEX[bytes[7]] + '-' +
    HEX[bytes[8]] + HEX[bytes[9]] + '-' + HEX[bytes[10]] + HEX[bytes[11]] +
    HEX[bytes[12]] + HEX[bytes[13]] + HEX[bytes[14]] + HEX[bytes[15]]
  );
}

function increment(): void {
  if (randBLo < 0xffffffff) {
    randBLo += 1;
    return;
  }
  randBLo = 0;
  if (randBHi < 0x3fffffff) {
    randBHi += 1;
    return;
  }
  randBHi = 0;
  if (randA < 0xfff) {
    randA += 1;
    return;
  }
  randA = 0;
  lastMs += 1;
}

/** Test hook: pins the generator state so carry paths can be exercised deterministically. */
export function __setUuidv7StateForTests(state: { ms: number; randA: number; randBHi: number; randBLo: number }): void {
  lastMs = state.ms;
  randA = state.randA;
  randBHi = state.randBHi;
  randBLo = state.randBLo;
}

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUuidv7(value: string): boolean {
  return UUIDV7.test(value);
}

/** Milliseconds since the epoch encoded in a UUIDv7. */
export function uuidv7Timestamp(value: string): number {
  return parseInt(value.slice(0, 8) + value.slice(9, 13), 16);
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${uuidv7()}`;
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.length === prefix.length + 37 && value.startsWith(prefix) && value[prefix.length] === '_' && UUIDV7.test(value.slice(prefix.length + 1));
}
