import { errors } from '@exchange/platform';
import type { marketV1Integrity } from '@exchange/proto';
import { integrityState } from './integrity.events';
import type { IntegrityStateName } from './integrity-states';

/** The requested state; unspecified or unknown → 400 validation_failed naming `state`. */
export function stateFromProto(value: marketV1Integrity.IntegrityState): IntegrityStateName {
  const found = integrityState.toWire(value);
  if (found === undefined) throw errors.invalidArgument('validation_failed', `state must be one of ${integrityState.names.join(', ')}`, { field: 'state' });
  return found;
}

// The encoders are shared with the outbox events.
export { toProtoAudit, toProtoSnapshot } from './integrity.events';
export { toProtoContract } from '../events/market.encode';
