import { serverStream, unary, writeWithBackpressure, type Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { callerOf, filterOf, pageOf, toPageInfo, toProtoOperatorEvent, toProtoPublicEvent } from './feeds.mapper';
import { FeedsService } from './feeds.service';

/** The TelemetryService RPCs of the event feeds: the public and operator lists and the operator JSONL export. */
export function feedsHandlers(r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'listPublicEvents' | 'listOperatorEvents' | 'exportOperatorEvents'> {
  const s = new FeedsService({ pool: r.pool });
  return {
    listPublicEvents: unary(logger, 'ListPublicEvents', async (req: telemetryV1.ListPublicEventsRequest) => {
      const { items, nextCursor } = await s.listPublic(filterOf(req.filter), pageOf(req.page));
      return { events: items.map(toProtoPublicEvent), page: toPageInfo(nextCursor) };
    }),
    listOperatorEvents: unary(logger, 'ListOperatorEvents', async (req: telemetryV1.ListOperatorEventsRequest) => {
      const { items, nextCursor } = await s.listOperator(callerOf(req.actor), filterOf(req.filter), pageOf(req.page));
      return { events: items.map(toProtoOperatorEvent), page: toPageInfo(nextCursor) };
    }),
    exportOperatorEvents: serverStream(logger, 'ExportOperatorEvents', async (call) => {
      const chunks = s.openExport(callerOf(call.request.actor), filterOf(call.request.filter));
      // Leaving the loop early (the client cancelled) ends the generator: no further page is read.
      for await (const jsonl of chunks) {
        if (!(await writeWithBackpressure(call, { jsonl }))) return;
      }
    }),
  };
}
