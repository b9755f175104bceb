import type pg from 'pg';
import { normalizeControls, sameControls, withStartupControls, type Controls } from '../domain/controls';
import { storeControls } from '../data/controls.store';
import { checkLedger, type LedgerCheckReport } from '../data/ledger-check';
import type { SetControlsCommand } from '../domain/wallet.commands';
import { walletEvents, SYSTEM_CALLER, type Caller } from '../events/wallet.events';
import { optionalText, type WalletContext } from './wallet-context';

/** Kill switches / read-only mode, and the ledger reconciliation (operator surface). */
export class OperationsService {
  constructor(
    private readonly ctx: WalletContext,
    private readonly pool: pg.Pool,
    private readonly afterCommit: () => void,
  ) {}

  getControls(): Promise<Controls> {
    return this.ctx.reader.controls();
  }

  /** Works in read-only mode too (it is how read-only mode is left). */
  async setControls(req: SetControlsCommand, caller: Caller): Promise<Controls> {
    const controls = normalizeControls({ readOnly: req.controls?.readOnly ?? false, killSwitches: req.controls?.killSwitches ?? [] });
    const reason = optionalText(req.reason, 'reason', 500) ?? '';
    await this.store(controls, reason, caller);
    return controls;
  }

  /** Start-up: WALLET_READ_ONLY / WALLET_KILL_SWITCHES switch on what the persisted row lacks. */
  async applyStartup(fromEnv: Controls): Promise<Controls> {
    const persisted = await this.ctx.reader.controls();
    const merged = withStartupControls(persisted, fromEnv);
    if (!sameControls(merged, persisted)) await this.store(merged, 'switched on at start by WALLET_READ_ONLY / WALLET_KILL_SWITCHES', SYSTEM_CALLER);
    return merged;
  }

  checkLedger(): Promise<LedgerCheckReport> {
    return checkLedger(this.pool, this.ctx.clock());
  }

  private async store(controls: Controls, reason: string, caller: Caller): Promise<void> {
    await storeControls(this.pool, controls, reason, this.ctx.clock(), walletEvents.controlsChanged(controls, reason, caller));
    this.afterCommit();
  }
}
