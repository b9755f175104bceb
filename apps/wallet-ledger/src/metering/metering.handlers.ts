import { unary, type Logger } from '@exchange/platform';
import type { walletV1, walletV1Metering } from '@exchange/proto';
import { caller, traceOf } from '../grpc/request';
import { createEpochTableCommand, ingestCommand, toProtoMeterEpochTable, toProtoMeterEvent } from './metering.mapper';
import type { MeteringService } from './metering.service';

type Served = 'ingestMeterEvent' | 'getMeterEvent' | 'createMeterEpochTable' | 'getMeterEpochTable';

/** IngestMeterEvent, GetMeterEvent, CreateMeterEpochTable, GetMeterEpochTable. */
export function meteringHandlers(s: MeteringService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, Served> {
  return {
    ingestMeterEvent: unary(logger, 'IngestMeterEvent', async (req: walletV1Metering.IngestMeterEventRequest, ctx) => {
      const r = await s.ingestMeterEvent(ingestCommand(req), caller(ctx), traceOf(ctx));
      return { event: toProtoMeterEvent(r.event), created: r.created };
    }),
    getMeterEvent: unary(logger, 'GetMeterEvent', async (req: walletV1Metering.GetMeterEventRequest) => ({
      event: toProtoMeterEvent(await s.getMeterEvent(req.objectId, req.viewerAgentId ?? null)),
    })),
    createMeterEpochTable: unary(logger, 'CreateMeterEpochTable', async (req: walletV1Metering.CreateMeterEpochTableRequest, ctx) => {
      const r = await s.createMeterEpochTable(createEpochTableCommand(req), caller(ctx), traceOf(ctx));
      return { table: toProtoMeterEpochTable(r.table), created: r.created };
    }),
    getMeterEpochTable: unary(logger, 'GetMeterEpochTable', async (req: walletV1Metering.GetMeterEpochTableRequest) => ({
      table: toProtoMeterEpochTable(await s.getMeterEpochTable(req.objectId)),
    })),
  };
}
