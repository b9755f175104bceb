import { serverStream, unary, writeWithBackpressure, type Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { callerOf, pageOf, toPageInfo, toProtoOperatorEvent } from '../feeds/feeds.mapper';
import { TimelinesService } from './timelines.service';

/** The TelemetryService RPCs of contract timelines: a page, or the whole timeline as JSONL. */
export function timelinesHandlers(r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'getContractTimeline' | 'exportContractTimeline'> {
  const s = new TimelinesService({ pool: r.pool });
  return {
    getContractTimeline: unary(logger, 'GetContractTimeline', async (req: telemetryV1.GetContractTimelineRequest) => {
      const { items, nextCursor } = await s.page(callerOf(req.actor), req.contractId, pageOf(req.page));
      return { contractId: req.contractId, events: items.map(toProtoOperatorEvent), page: toPageInfo(nextCursor) };
    }),
    exportContractTimeline: serverStream(logger, 'ExportContractTimeline', async (call) => {
      const chunks = await s.openExport(callerOf(call.request.actor), call.request.contractId);
      // Leaving the loop early (the client cancelled) ends the generator: no further page is read.
      for await (const jsonl of chunks) {
        if (!(await writeWithBackpressure(call, { jsonl }))) return;
      }
    }),
  };
}
