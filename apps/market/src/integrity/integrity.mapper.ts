import { errors } from '@exchange/platform';
import type { marketV1Integrity } from '@exchange/proto';
import { INTEGRITY_STATE_TO_PROTO as TO_PROTO } from './integrity.events';
import type { IntegrityStateName } from './integrity-states';


/** The requested state; unspecified or unknown → 400 validation_failed naming `state`. */
export function stateFromProto(value: marketV1Integrity.IntegrityState): IntegrityStateName {
  const found = (Object.entries(TO_PROTO) as Array<[IntegrityStateName, number]>).find(([, v]) => v === value);
  if (!found) throw errors.invalidArgument('validation_failed', 'state must be one of normal, elevated, restricted, halted', { field: 'state' });
  return found[0];
}

// The encoders are shared with the outbox events.
export { toProtoAudit, toProtoSnapshot } from './integrity.events';
export { toProtoContract } from '../events/market.encode';
