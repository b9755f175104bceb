import type { Hold } from '../domain/wallet.model';
import { walletErrors } from '../domain/wallet.errors';

// Who controls a hold (DESIGN §4 Wallet-ledger, issue 12 finding 2). A hold made through the
// wallet routes is the agent's own: ReleaseHold / ConsumeHold move it. A hold a service made for
// its own process (the market's escrow) is that service's: only its own RPCs move it (the
// market's Settle / Refund; commerce's purchases through Settle / Refund with controller
// "commerce"), so neither the agent nor the operator can take escrow back through the wallet
// routes. The controller is fixed at creation.

/** The controller of holds made through the wallet routes. */
export const AGENT_CONTROLLER = 'agent';
/** The market's escrow; Settle and Refund are its path. */
export const MARKET_CONTROLLER = 'market';
/** Commerce purchases (a buyer agent paying a merchant); Settle and Refund with controller "commerce". */
export const COMMERCE_CONTROLLER = 'commerce';

const SERVICE_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** The controller a CreateHold asks for: absent or "" → agent; otherwise a service name. */
export function parseController(raw: string | undefined): string {
  if (raw === undefined || raw === '') return AGENT_CONTROLLER;
  if (!SERVICE_NAME.test(raw)) {
    throw walletErrors.validationFailed('controller must be "agent" or a service name ([a-z][a-z0-9_]{0,31})', { field: 'controller' });
  }
  return raw;
}

/**
 * A service-controlled hold never expires on its own: its service ends it (the sweeper must not
 * release escrow behind the market's back), so it cannot be given an expires_at.
 */
export function requireExpiryAllowed(controller: string, expiresAt: Date | null): void {
  if (controller !== AGENT_CONTROLLER && expiresAt !== null) {
    throw walletErrors.validationFailed(`a hold controlled by ${controller} cannot have expires_at (its service ends it)`, { field: 'expires_at' });
  }
}

/** Refuses a move of `hold` over another path than its controller's: PERMISSION_DENIED hold_controlled_by_<controller>. */
export function requireControlledBy(hold: Hold, path: string): void {
  if (hold.controller !== path) throw walletErrors.holdControlledBy(hold.controller, hold.holdId);
}
