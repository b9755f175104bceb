import { createServer } from 'node:net';

/** A TCP port that was free on 127.0.0.1 a moment ago (the OS picks it). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not determine a free port'))));
    });
  });
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

// Below Linux's ephemeral range (32768-60999): outgoing connections never take these ports, so a
// range found free stays free until its services bind it (unlike OS-picked ports, whose
// neighbours are handed to the next outgoing connection).
const RANGE_LOW = 20_000;
const RANGE_HIGH = 32_000;

/** The first of `count` consecutive ports free on 127.0.0.1, for processes that bind base + i. */
export async function findFreePortRange(count: number, attempts = 50): Promise<number> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const base = RANGE_LOW + Math.floor(Math.random() * (RANGE_HIGH - RANGE_LOW - count));
    let free = true;
    for (let i = 0; i < count && free; i++) free = await canListen(base + i);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found between ${RANGE_LOW} and ${RANGE_HIGH}`);
}

/**
 * A port for a service a launcher starts later (its address handed out first): outside the
 * ephemeral range, so no outgoing connection made meanwhile takes it (findFreePort's OS-picked
 * port can be, and the later bind fails with EADDRINUSE).
 */
export function findStablePort(): Promise<number> {
  return findFreePortRange(1);
}
