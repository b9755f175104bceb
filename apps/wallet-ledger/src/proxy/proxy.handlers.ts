import { unary, type Logger } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import type { ProxyService } from './proxy.service';

/** RecordProxyCall, ExportProxyCasefile, GetProxyMetrics. */
export function proxyHandlers(s: ProxyService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'recordProxyCall' | 'exportProxyCasefile' | 'getProxyMetrics'> {
  return {
    recordProxyCall: unary(logger, 'RecordProxyCall', async () => s.notYet()),
    exportProxyCasefile: unary(logger, 'ExportProxyCasefile', async () => s.notYet()),
    getProxyMetrics: unary(logger, 'GetProxyMetrics', async () => s.notYet()),
  };
}
