import { errors } from '@exchange/platform';
import type { PurchaseRecord } from '../checkout/session.model';
import { getPurchase, getSession } from '../checkout/sessions.repo';
import { placeHold } from './hold.step';
import { completeAtMerchant } from './merchant.step';
import type { PurchaseSagaDeps } from './purchase-deps';
import { nextStep } from './purchase-steps';
import { releaseHold } from './release.step';
import { reserve } from './reserve.step';
import { settle } from './settle.step';

export type { PurchaseSagaDeps } from './purchase-deps';

// At most this many steps per call: reserve, hold, merchant, settle or release, plus a re-read.
const MAX_STEPS = 6;

/**
 * The purchase of a live checkout (README "Purchase saga"): reserve on the mandate → wallet hold →
 * merchant complete → settlement to the merchant, each step its own transaction under the
 * session's row lock, each repeatable with the attempt's idempotency keys. A crash between steps
 * leaves the stored stage; `resume` (the recovery worker) moves it on from there.
 */
export class PurchaseSaga {
  constructor(private readonly deps: PurchaseSagaDeps) {}

  /** Pre-checks done by checkout. Runs or resumes the purchase; throws mapped DomainErrors after releasing. */
  async complete(input: { sessionId: string; payment: Record<string, unknown> | null }): Promise<{ purchase: PurchaseRecord | null }> {
    const { sessionId } = input;
    const before = await getSession(this.deps.pool, sessionId);
    if (!before) throw errors.notFound('checkout_session', sessionId);
    if (nextStep(before, false) === 'reserve') await reserve(this.deps, sessionId, input.payment);
    await this.drive(sessionId);
    const after = await getSession(this.deps.pool, sessionId);
    if (after?.paymentStage === 'released') {
      // Another complete of this session ran the attempt and it failed; its caller got the details.
      throw errors.failedPrecondition('checkout_not_ready', `the complete failed (${after.failureReason ?? 'released'}); the hold was released`, { failure_reason: after.failureReason });
    }
    return { purchase: await getPurchase(this.deps.pool, sessionId) };
  }

  /** Moves an in-flight session on from its stored stage (the recovery worker); true when it moved. */
  async resume(sessionId: string): Promise<boolean> {
    const before = await getSession(this.deps.pool, sessionId);
    if (!before || nextStep(before, true) === 'stopped' || nextStep(before, true) === 'done') return false;
    let failure: unknown = null;
    await this.drive(sessionId).catch((err: unknown) => {
      failure = err;
    });
    const after = await getSession(this.deps.pool, sessionId);
    // Moved = the stored state changed, even when a later step failed (the merchant refused → released).
    const moved = after !== null && (after.paymentStage !== before.paymentStage || after.failureReason !== before.failureReason);
    if (failure && !moved) throw failure;
    return moved;
  }

  /** Runs the steps the stored stage calls for, until settled, released or a step throws. */
  private async drive(sessionId: string): Promise<void> {
    for (let i = 0; i < MAX_STEPS; i++) {
      const state = await getSession(this.deps.pool, sessionId);
      if (!state) throw errors.notFound('checkout_session', sessionId);
      switch (nextStep(state, true)) {
        case 'hold':
          await placeHold(this.deps, sessionId);
          break;
        case 'merchant': {
          const { failure, release } = await completeAtMerchant(this.deps, sessionId);
          if (release) {
            // The caller hears the merchant's answer; a release the wallet did not take yet is the recovery worker's.
            await releaseHold(this.deps, sessionId).catch((err: unknown) => {
              this.deps.logger.warn({ commerce_session_id: sessionId, err: (err as Error).message }, 'purchase hold release postponed');
            });
          }
          if (failure) throw failure;
          break;
        }
        case 'release':
          await releaseHold(this.deps, sessionId);
          break;
        case 'settle':
          await settle(this.deps, sessionId);
          break;
        default:
          return;
      }
    }
  }
}
