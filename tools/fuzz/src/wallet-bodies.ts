// Wallet bodies that reach a 2xx on the operation's targets (op-targets.ts): the document's
// example consumes 20, more than a fixture hold holds, and names the acting agent as payee,
// often the hold's own wallet (400 self_transfer).
import fc from 'fast-check';
import { freshIdempotencyKey } from './example-arbitrary';

/** Consumes part or all of a target hold, paid to one of the target's payees. */
export function consumeHoldBody(payees: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc
    .record({ to: payees, amount: fc.option(fc.constantFrom('0.1', '0.5', '1'), { nil: undefined }), key: freshIdempotencyKey() })
    .map((v) => ({ to_agent_id: v.to, ...(v.amount !== undefined ? { amount: v.amount } : {}), idempotency_key: v.key }));
}
