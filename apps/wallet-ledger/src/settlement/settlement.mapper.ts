import { walletV1 } from '@exchange/proto';
import type { CorrectionResult, SettlementResult } from '../domain/wallet.commands';
import { toProtoHold, toProtoReceipt } from '../events/wallet.messages';
import { codec, replay, type Replay } from '../grpc/codec';
import { fromProtoHold } from '../holds/holds.mapper';
import { fromProtoReceipt } from '../receipts/receipts.mapper';
import type { SettlementDeps } from './settlement.service';

export const toProtoSettlementResponse = (r: SettlementResult) => ({ receipt: toProtoReceipt(r.receipt), hold: toProtoHold(r.hold), ...replay(r) });
export const toProtoCorrectionResponse = (r: CorrectionResult): walletV1.CorrectSettlementResponse => ({ receipt: toProtoReceipt(r.receipt), ...replay(r) });

const settlementResult = (m: { receipt?: walletV1.Receipt; hold?: walletV1.Hold } & Replay): SettlementResult => ({
  receipt: fromProtoReceipt(m.receipt),
  hold: fromProtoHold(m.hold),
  ...replay(m),
});

/** The stored form of the area's mutation results (see grpc/codec.ts). */
export const settlementCodecs: SettlementDeps['codecs'] = {
  settle: codec(walletV1.SettleResponse, toProtoSettlementResponse, settlementResult),
  refund: codec(walletV1.RefundResponse, toProtoSettlementResponse, settlementResult),
  correctSettlement: codec(walletV1.CorrectSettlementResponse, toProtoCorrectionResponse, (m) => ({
    receipt: fromProtoReceipt(m.receipt),
    ...replay(m),
  })),
};
