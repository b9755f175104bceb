import { walletV1Events } from '@exchange/proto';
import type { Controls } from '../domain/controls';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import { toProtoControls } from '../events/wallet.messages';

/** Events of the controls (kill switches, read-only mode). */
export const operationsEvents = {
  controlsChanged: (controls: Controls, reason: string, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.controls_changed,
      'controls',
      caller,
      walletV1Events.ControlsChanged.toJSON({ controls: toProtoControls(controls), reason }),
    ),
};
