import { errorInfoFromGrpc, errors, parseAmount, type Logger } from '@exchange/platform';
import { status } from '@grpc/grpc-js';
import type { WalletPort } from '../domain/ports';
import type { WalletClient } from './clients';

// The owner's available balance (wallet-ledger GetBalance), checked against a run's budget.

export function walletPort(wallet: WalletClient, logger: Logger): WalletPort {
  return {
    async available(agentId: string, currency: string): Promise<bigint> {
      let balances;
      try {
        ({ balances } = await wallet.getBalance({ agentId }, { actor: 'operator:workflows' }));
      } catch (err) {
        const info = errorInfoFromGrpc(err);
        if (info.grpcCode === status.NOT_FOUND) throw errors.notFound('agent', agentId);
        logger.warn({ err: info.message, code: info.code }, 'wallet-ledger balance lookup failed');
        throw errors.unavailable('service_unavailable', 'wallet-ledger could not be reached to check the run budget; nothing was changed');
      }
      const balance = balances.find((b) => b.currency === currency);
      return balance ? parseAmount(balance.available) : 0n;
    },
  };
}
