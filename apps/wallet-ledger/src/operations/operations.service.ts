import { normalizeControls, sameControls, withStartupControls, type Controls } from '../domain/controls';
import type { SetControlsCommand } from '../domain/wallet.commands';
import { SYSTEM_CALLER, type Caller } from '../events/wallet.events';
import { optionalText } from '../service/use-case';
import { operationsEvents } from './operations.events';
import type { OperationsRepo } from './operations.repo';

export interface OperationsDeps {
  repo: Pick<OperationsRepo, 'controls' | 'storeControls'>;
  clock: () => Date;
  /** Wakes the outbox relay once a change (and its event) is committed. */
  afterCommit: () => void;
}

/** Kill switches / read-only mode (operator surface). */
export class OperationsService {
  constructor(private readonly ctx: OperationsDeps) {}

  getControls(): Promise<Controls> {
    return this.ctx.repo.controls();
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
    const persisted = await this.ctx.repo.controls();
    const merged = withStartupControls(persisted, fromEnv);
    if (!sameControls(merged, persisted)) await this.store(merged, 'switched on at start by WALLET_READ_ONLY / WALLET_KILL_SWITCHES', SYSTEM_CALLER);
    return merged;
  }

  private async store(controls: Controls, reason: string, caller: Caller): Promise<void> {
    await this.ctx.repo.storeControls(controls, reason, this.ctx.clock(), operationsEvents.controlsChanged(controls, reason, caller));
    this.ctx.afterCommit();
  }
}
