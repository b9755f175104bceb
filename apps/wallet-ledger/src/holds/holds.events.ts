import { walletV1Events } from '@exchange/proto';
import type { Hold } from '../domain/wallet.model';
import { envelope, type Caller } from '../events/wallet.events';
import { toProtoHold } from '../events/wallet.messages';

export type HoldVerb = 'created' | 'released' | 'consumed' | 'expired';

/** Events of holds (settlement's receipt.issued carries the hold too: settlement.events.ts). */
export const holdsEvents = {
  hold: (verb: HoldVerb, hold: Hold, caller: Caller) =>
    envelope(`exchange.wallet.hold.${verb}`, hold.agentId, caller, walletV1Events.HoldChanged.toJSON({ hold: toProtoHold(hold) })),
};
