// The run's sequence of requests: operations in a seeded shuffled round (operations with a body
// twice per round: they have more to break), each operation's requests drawn from its own
// fast-check arbitrary in small seeded batches. Request n is the same for the same seed.
import fc from 'fast-check';
import { caseArbitrary, type CaseContext } from './cases';
import type { Operation } from './openapi';
import type { RequestCase } from './request-case';

const BATCH = 16;

/** 32-bit FNV-1a over the parts, for per-operation, per-batch seeds. */
export function mixSeed(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0000')) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h | 0;
}

/** The items in a seeded random order (fast-check's own generator: no second PRNG here). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  if (items.length < 2) return [...items];
  const all = fc.shuffledSubarray([...items], { minLength: items.length, maxLength: items.length });
  return fc.sample(all, { seed, numRuns: 1 })[0];
}

export interface NumberedCase {
  index: number;
  case: RequestCase;
}

export class CaseStream {
  private readonly round: Operation[];
  private readonly arbitraries = new Map<string, fc.Arbitrary<RequestCase>>();
  private readonly buffers = new Map<string, { batch: number; cases: RequestCase[] }>();
  private readonly drawn = new Map<string, number>();
  private index = 0;
  private cached: { cycle: number; order: Operation[] } | null = null;

  constructor(
    operations: readonly Operation[],
    private readonly ctx: CaseContext,
    private readonly seed: number,
  ) {
    this.round = operations.flatMap((op) => (op.body ? [op, op] : [op]));
    if (this.round.length === 0) throw new Error('no operations to fuzz');
  }

  /** The operation of request `index`. */
  operationAt(index: number): Operation {
    const cycle = Math.floor(index / this.round.length);
    if (this.cached?.cycle !== cycle) this.cached = { cycle, order: shuffled(this.round, mixSeed(this.seed, 'round', cycle)) };
    return this.cached.order[index % this.round.length];
  }

  next(): NumberedCase {
    const index = this.index++;
    const op = this.operationAt(index);
    const n = this.drawn.get(op.key) ?? 0;
    this.drawn.set(op.key, n + 1);
    return { index, case: this.caseOf(op, n) };
  }

  private caseOf(op: Operation, n: number): RequestCase {
    const batch = Math.floor(n / BATCH);
    let buffer = this.buffers.get(op.key);
    if (!buffer || buffer.batch !== batch) {
      let arb = this.arbitraries.get(op.key);
      if (!arb) {
        arb = caseArbitrary(op, this.ctx);
        this.arbitraries.set(op.key, arb);
      }
      buffer = { batch, cases: fc.sample(arb, { seed: mixSeed(this.seed, op.key, batch), numRuns: BATCH }) };
      this.buffers.set(op.key, buffer);
    }
    return buffer.cases[n % BATCH];
  }
}
