// Wallet resources set aside as targets (op-targets.ts) of the operations that use them up:
// plain holds to consume (never escrow: that moves only through its contract), unconfirmed
// deposits to confirm, pending withdrawals to cancel, and the one wallet allowed to withdraw
// (MAINNET_ATTESTED, with a payout destination). The pools' single hold, deposit and withdrawal
// are gone after the first release, confirm or cancel, often before the operation is drawn.
import type { TargetSet } from './op-targets';
import type { Party, Step } from './fixture-kit';

export interface WalletFixtureOptions {
  /** A funded signing agent: its holds and deposits. */
  owner: Party;
  /** Another agent, paid by the consumed holds. */
  payee: string;
  /** The attested agent with a payout destination (withdrawals), if setup made it. */
  withdrawer: { party: Party; payoutDestinationId: string } | null;
  targets: TargetSet;
  step: Step;
}

export const WALLET_OPS = {
  consume: 'POST /v1/wallets/{agent_id}/holds/{hold_id}/consume',
  confirm: 'POST /v1/wallets/{agent_id}/deposits/{deposit_id}/confirm',
  withdraw: 'POST /v1/wallets/{agent_id}/withdrawals',
  cancel: 'POST /v1/wallets/{agent_id}/withdrawals/{withdrawal_id}/cancel',
} as const;

export async function createWalletFixtures(o: WalletFixtureOptions): Promise<void> {
  const { owner, targets, step } = o;
  const wallet = owner.client.wallets;
  for (const n of [1, 2]) {
    const hold = await step(`hold to consume ${n}`, () =>
      wallet.createHold(owner.agentId, { amount: '1', currency: 'CREDIT', reference: 'fuzz-consume', expiresAt: new Date(Date.now() + 86_400_000) }),
    );
    if (hold) targets.add(WALLET_OPS.consume, null, { agent_id: owner.agentId, hold_id: hold.hold_id, to_agent_id: o.payee });
    const deposit = await step(`deposit to confirm ${n}`, () => wallet.createDeposit(owner.agentId, { amount: '10', currency: 'CREDIT', method: 'sandbox', reference: 'fuzz-confirm' }));
    if (deposit) targets.add(WALLET_OPS.confirm, null, { agent_id: owner.agentId, deposit_id: deposit.deposit_id });
  }
  const w = o.withdrawer;
  if (!w) return;
  targets.add(WALLET_OPS.withdraw, null, { agent_id: w.party.agentId });
  const more = await step('withdrawal to cancel', () =>
    w.party.client.wallets.createWithdrawal(w.party.agentId, { amount: '1', currency: 'CREDIT', payoutDestinationId: w.payoutDestinationId }),
  );
  if (more) targets.add(WALLET_OPS.cancel, null, { agent_id: w.party.agentId, withdrawal_id: more.withdrawal_id });
}
