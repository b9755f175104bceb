import type pg from 'pg';
import type { AgentDirectory } from '@exchange/identity-client';
import type { Logger } from '@exchange/platform';
import type { UcpValidator } from '@exchange/ucp';
import type { WalletClient } from '../clients/wallet.client';
import type { OriginSources } from '../checkout/origin';
import type { FaultPoint } from '../domain/faults';
import type { MerchantPort } from '../domain/merchant.ports';
import type { PlatformIdentity } from '../merchants/platform-identity.model';

/**
 * Everything the commerce slices may use, built once by index.ts. Each slice's factory declares
 * what it uses as a `Pick<CommerceRuntime, …>`, so its signature tells what it needs.
 */
export interface CommerceRuntime {
  pool: pg.Pool;
  agents: AgentDirectory;
  wallet: WalletClient;
  merchants: MerchantPort;
  /** The market and workflows, asked about a checkout's origin. */
  origins: OriginSources;
  platform: PlatformIdentity;
  /** The one UCP schema validator (compiling its schemas costs ~250 ms, so it is built once). */
  ucp: UcpValidator;
  /** The exchange ed25519 key: signs casefile dockets. */
  exchangeSigner: { privateKey: Uint8Array; publicKey: string };
  clock: () => Date;
  logger: Logger;
  /** Wakes the outbox relay after a commit that wrote events. */
  notify: () => void;
  faults: ReadonlySet<FaultPoint>;
  /** A complete whose saga has not moved for this long is taken over by the recovery worker. */
  recoveryAfterMs: number;
  exchangeEnv: 'sandbox' | 'mainnet';
}
