import { unary, type Logger } from '@exchange/platform';
import type { walletV1, walletV1Metering } from '@exchange/proto';
import { caller } from '../grpc/request';
import { fromProtoRecordProxyCall, toProtoProxyMetrics, toProtoRecordProxyCallResponse } from './proxy.mapper';
import type { ProxyService } from './proxy.service';

/** RecordProxyCall, ExportProxyCasefile, GetProxyMetrics: map the request, call the service, map the result. */
export function proxyHandlers(s: ProxyService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'recordProxyCall' | 'exportProxyCasefile' | 'getProxyMetrics'> {
  return {
    recordProxyCall: unary(logger, 'RecordProxyCall', async (req: walletV1Metering.RecordProxyCallRequest, ctx) =>
      toProtoRecordProxyCallResponse(await s.recordProxyCall(fromProtoRecordProxyCall(req), caller(ctx))),
    ),
    exportProxyCasefile: unary(logger, 'ExportProxyCasefile', async (req: walletV1Metering.ExportProxyCasefileRequest) => {
      const { docketJson, callCount } = await s.exportProxyCasefile(req);
      return { docketJson, callCount: String(callCount) };
    }),
    getProxyMetrics: unary(logger, 'GetProxyMetrics', async (req: walletV1Metering.GetProxyMetricsRequest) =>
      toProtoProxyMetrics(await s.getProxyMetrics(req)),
    ),
  };
}
