import type { MarketRuntime } from '../service/runtime';
import { walletControls } from './integrity-states';
import { markWalletSynced, readIntegrity } from './integrity.repo';

/** Any constant: serializes the pushes of all market processes on one database. */
const SYNC_LOCK = 0x6d6b7469; // "mkti"

/**
 * Pushes the effective controls to wallet-ledger (SetControls) and records the version it
 * acknowledged. Pushes are serialized by an advisory lock, so an older push never lands after a
 * newer one. Returns true when wallet-ledger is in sync afterwards; a wallet that cannot be
 * reached leaves it false (the Periodic worker retries), never an error for the operator.
 */
export async function syncWalletControls(ctx: Pick<MarketRuntime, 'pool' | 'wallet' | 'logger'>, opts: { force?: boolean } = {}): Promise<boolean> {
  const client = await ctx.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SYNC_LOCK]);
    const integrity = await readIntegrity(client);
    const version = integrity.walletControlsVersion;
    if (!opts.force && integrity.walletSyncedVersion >= version) {
      await client.query('COMMIT');
      return true;
    }
    const controls = walletControls(integrity);
    try {
      await ctx.wallet.setControls({ controls, reason: `market integrity ${integrity.state} (controls version ${version})` });
    } catch (err) {
      await client.query('COMMIT');
      ctx.logger.warn({ err: (err as Error).message, version }, 'wallet controls not pushed yet');
      return false;
    }
    await markWalletSynced(client, version);
    await client.query('COMMIT');
    return true;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
