import { startGrpcServer, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { walletHandlers, type WalletServices } from './wallet.handlers';

export const WALLET_LEDGER_SERVICE_NAME = 'exchange.wallet.v1.WalletLedgerService';

/** Binds the wallet-ledger gRPC server; health starts NOT_SERVING until the caller flips it. */
export function startWalletGrpcServer(opts: {
  services: WalletServices;
  logger: Logger;
  host: string;
  port: number;
}): Promise<GrpcServerHandle> {
  return startGrpcServer({
    name: WALLET_LEDGER_SERVICE_NAME,
    host: opts.host,
    port: opts.port,
    logger: opts.logger,
    register: (server) => server.addService(walletV1.WalletLedgerServiceService, walletHandlers(opts.services, opts.logger)),
  });
}
