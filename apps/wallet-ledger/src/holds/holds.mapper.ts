import { parseAmount } from '@exchange/platform';
import { walletV1, walletV1Wire } from '@exchange/proto';
import type { HoldResult } from '../domain/wallet.commands';
import type { Hold } from '../domain/wallet.model';
import { toProtoHold } from '../events/wallet.messages';
import { codec, known, must, nul, nulAmount, replay, type Replay } from '../grpc/codec';
import type { HoldsDeps } from './holds.service';

export function fromProtoHold(h: walletV1.Hold | undefined): Hold {
  const m = must(h, 'hold');
  return {
    ...m,
    amount: parseAmount(m.amount),
    status: known(walletV1Wire.holdStatus, m.status, 'hold status'),
    expiresAt: nul(m.expiresAt),
    reference: nul(m.reference),
    consumedAmount: nulAmount(m.consumedAmount),
    releasedAmount: nulAmount(m.releasedAmount),
    consumedToAgentId: nul(m.consumedToAgentId),
    createdAt: must(m.createdAt, 'created_at'),
    updatedAt: must(m.updatedAt, 'updated_at'),
    // Absent in responses stored before hold controllers existed: kept absent, so their replay is unchanged.
    controller: m.controller as string,
  };
}

export const toProtoHoldResponse = (r: HoldResult) => ({ hold: toProtoHold(r.hold), ...replay(r) });

const holdResult = (m: { hold?: walletV1.Hold } & Replay): HoldResult => ({ hold: fromProtoHold(m.hold), ...replay(m) });

/** The stored form of the area's mutation results (see grpc/codec.ts). */
export const holdsCodecs: HoldsDeps['codecs'] = {
  createHold: codec(walletV1.CreateHoldResponse, toProtoHoldResponse, holdResult),
  releaseHold: codec(walletV1.ReleaseHoldResponse, toProtoHoldResponse, holdResult),
  consumeHold: codec(walletV1.ConsumeHoldResponse, toProtoHoldResponse, holdResult),
};
