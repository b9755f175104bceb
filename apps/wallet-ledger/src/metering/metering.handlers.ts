import { unary, type Logger } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import type { MeteringService } from './metering.service';

/** IngestMeterEvent, GetMeterEvent, CreateMeterEpochTable, GetMeterEpochTable. */
export function meteringHandlers(s: MeteringService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'ingestMeterEvent' | 'getMeterEvent' | 'createMeterEpochTable' | 'getMeterEpochTable'> {
  return {
    ingestMeterEvent: unary(logger, 'IngestMeterEvent', async () => s.notYet()),
    getMeterEvent: unary(logger, 'GetMeterEvent', async () => s.notYet()),
    createMeterEpochTable: unary(logger, 'CreateMeterEpochTable', async () => s.notYet()),
    getMeterEpochTable: unary(logger, 'GetMeterEpochTable', async () => s.notYet()),
  };
}
