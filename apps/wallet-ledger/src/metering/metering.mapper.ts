import type { walletV1Metering } from '@exchange/proto';
import type { CreateMeterEpochTableCommand, IngestMeterEventCommand } from './metering.service';

// proto → use-case inputs; domain → proto is shared with the outbox events (metering.events.ts).
export { toProtoMeterEpochTable, toProtoMeterEvent } from './metering.events';

/** What the registry call carries of the request (its ids, for the logs). */

export function ingestCommand(req: walletV1Metering.IngestMeterEventRequest): IngestMeterEventCommand {
  return { signerAgentId: req.signerAgentId, payloadJson: req.payloadJson, signature: req.signature };
}

export function createEpochTableCommand(req: walletV1Metering.CreateMeterEpochTableRequest): CreateMeterEpochTableCommand {
  return {
    epoch: req.epoch,
    effectiveFrom: req.effectiveFrom,
    effectiveTo: req.effectiveTo,
    prices: req.prices.map((p) => ({ meter: p.meter, unitPrice: p.unitPrice })),
    currency: req.currency,
  };
}
