// Invariants a status code alone does not show (issue 12 findings 2, 3 and 9), checked with a
// second request where needed:
// - a refused upload leaves nothing behind (its unique file's ref is not found afterwards);
// - escrow holds move only through the contract's lifecycle, never through the wallet routes;
// - an agent-signed request sent again verbatim is not executed again (nonce), unless it is an
//   idempotent replay of the first outcome.
import type { Violation } from './checker';
import type { RequestCase } from './request-case';

const HOLD_ACTION = /\/holds\/([^/?#]+)\/(release|consume)(?:[?#]|$)/;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The escrow hold a wallet hold action names, when it names one. */
export function escrowHoldIn(c: RequestCase, escrowHolds: ReadonlySet<string>): string | null {
  if (c.method !== 'POST' || !/\/holds\/\{hold_id\}\/(release|consume)$/.test(c.op.path)) return null;
  const m = HOLD_ACTION.exec(c.target);
  const hold = m ? decode(m[1]) : null;
  return hold && escrowHolds.has(hold) ? hold : null;
}

export function escrowViolation(c: RequestCase, status: number, escrowHolds: ReadonlySet<string>): Violation | null {
  const hold = escrowHoldIn(c, escrowHolds);
  if (!hold || status < 200 || status >= 300) return null;
  return { kind: 'escrow_moved', detail: `escrow hold ${hold} answered ${status} through the wallet route (must be 403 hold_controlled_by_market)` };
}

/**
 * Agent-signed mutations that succeeded are sent again verbatim, one in `every`. Routes open to
 * anyone (the casefile verifiers) ignore a signature, so a second identical call is just a read.
 */
export function shouldReplay(kind: string, c: RequestCase, status: number, index: number, every = 3): boolean {
  return kind === 'agent' && !c.op.auth.anonymous && c.method === 'POST' && status >= 200 && status < 300 && index % every === 0;
}

export function replayViolation(status: number, headers: Record<string, string>): Violation | null {
  if (status < 200 || status >= 300 || headers['idempotent-replayed'] === 'true') return null;
  return { kind: 'replay_accepted', detail: `the same signed request sent again answered ${status} without Idempotent-Replayed` };
}

/** The answer to GET /v1/artifacts/{ref} (operator) after the upload of `ref` was refused. */
export function storedViolation(uploadStatus: number, lookupStatus: number, ref: string): Violation | null {
  if (uploadStatus < 400 || lookupStatus !== 200) return null;
  return { kind: 'refused_but_stored', detail: `upload answered ${uploadStatus} yet ${ref} is stored` };
}
