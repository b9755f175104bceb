import type { telemetryV1 } from '@exchange/proto';
import type { BoostsInput, SignalInput, TelemetryActor } from './signal-rules';
import { signalType } from './signals.events';

// Proto requests → the signals service's input (the signal is encoded by signals.events.ts).

export { toProtoSignal } from './signals.events';

export function actorOf(actor: telemetryV1.Actor | undefined): TelemetryActor | undefined {
  return actor === undefined ? undefined : { agentId: actor.agentId, operator: actor.operator };
}

export function signalInput(req: telemetryV1.RecordMatchingSignalRequest): SignalInput {
  return {
    signal: signalType.toWire(req.signal),
    contractId: req.contractId,
    sellerId: req.sellerId,
    listingId: req.listingId,
    requestId: req.requestId,
    occurredAt: req.occurredAt,
  };
}

export function boostsInput(req: telemetryV1.GetMatchingBoostsRequest): BoostsInput {
  return { contractId: req.contractId, sellerIds: req.sellerIds, sellerId: req.sellerId, contractIds: req.contractIds };
}
