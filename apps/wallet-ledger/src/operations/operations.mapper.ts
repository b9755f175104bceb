import type { walletV1 } from '@exchange/proto';
import type { Controls } from '../domain/controls';
import { toProtoControls } from '../events/wallet.messages';

export const toProtoControlsResponse = (c: Controls): { controls: walletV1.Controls } => ({ controls: toProtoControls(c) });
