import type { FastifyReply } from 'fastify';
import { problem } from '../plugins/app/problem';

// Idempotency keys at the HTTP edge (DESIGN §3 "Idempotency"). The key travels in the body
// (`idempotency_key`) or the `Idempotency-Key` header; the wallet-ledger service stores the
// outcome per (wallet owner, key) and says when an answer is a replay.

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** 1-255 printable ASCII characters (space included), as the service requires. */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * The request's key: body and header must agree when both are sent. `required` (balance
 * mutations): neither → 400 `idempotency_key_required`; otherwise "" means "no key".
 */
export function resolveIdempotencyKey(input: {
  bodyKey: string | undefined;
  headerKey: string | string[] | undefined;
  required: boolean;
}): string {
  if (Array.isArray(input.headerKey)) {
    throw problem(400, 'invalid_idempotency_key', 'send one Idempotency-Key header');
  }
  const fromHeader = input.headerKey;
  const fromBody = input.bodyKey;
  if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody) {
    throw problem(400, 'idempotency_key_mismatch', 'the Idempotency-Key header and the body idempotency_key differ; send one or the same value');
  }
  const key = fromBody ?? fromHeader;
  if (key === undefined) {
    if (!input.required) return '';
    throw problem(400, 'idempotency_key_required', 'this balance mutation needs an idempotency key: body idempotency_key or header Idempotency-Key', {
      errors: [{ pointer: '/idempotency_key', message: 'is required (or send the Idempotency-Key header)' }],
    });
  }
  if (!isValidIdempotencyKey(key)) {
    throw problem(400, 'invalid_idempotency_key', 'the idempotency key must be 1-255 printable ASCII characters', {
      errors: [{ pointer: '/idempotency_key', message: 'must be 1-255 printable ASCII characters' }],
    });
  }
  return key;
}

/** Marks a stored outcome served again, like Stripe's `Idempotent-Replayed: true`. */
export function markReplayed(reply: FastifyReply, replayed: boolean | undefined): void {
  if (replayed) reply.header(REPLAYED_HEADER, 'true');
}
