import { parseAmount } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import type { TransferResult, WalletBalances } from '../domain/wallet.commands';
import type { Transfer } from '../domain/wallet.model';
import { toProtoBalance, toProtoTransfer } from '../events/wallet.messages';
import { codec, must, nul, replay } from '../grpc/codec';
import type { BalancesDeps } from './balances.service';

export const toProtoBalances = (b: WalletBalances): walletV1.GetBalanceResponse => ({
  agentId: b.agentId,
  balances: b.balances.map(toProtoBalance),
  asOf: b.asOf,
});

export function fromProtoTransfer(t: walletV1.Transfer | undefined): Transfer {
  const m = must(t, 'transfer');
  return { ...m, amount: parseAmount(m.amount), memo: nul(m.memo), createdAt: must(m.createdAt, 'created_at') };
}

export const toProtoTransferResponse = (r: TransferResult): walletV1.TransferResponse => ({ transfer: toProtoTransfer(r.transfer), ...replay(r) });

/** The stored form of the area's mutation results (see grpc/codec.ts). */
export const balancesCodecs: BalancesDeps['codecs'] = {
  transfer: codec(walletV1.TransferResponse, toProtoTransferResponse, (m) => ({ transfer: fromProtoTransfer(m.transfer), ...replay(m) })),
};
