import { accountId, agentAccount, merchantAccount, systemAccount, type AccountRef } from './accounts';

/** amount > 0 raises the account's balance, < 0 lowers it (README.md "Sign convention"). */
export interface Posting {
  account: AccountRef;
  amount: bigint;
}

/**
 * The postings of one journal entry: one per account (same-account lines merged), zero lines
 * dropped, sorted by account id (the lock order). Throws when they do not sum to zero — that
 * would be a bug in a builder, never a client error.
 */
export function balancedPostings(lines: Posting[]): Posting[] {
  const byAccount = new Map<string, Posting>();
  let sum = 0n;
  for (const line of lines) {
    sum += line.amount;
    const id = accountId(line.account);
    const existing = byAccount.get(id);
    byAccount.set(id, { account: line.account, amount: (existing?.amount ?? 0n) + line.amount });
  }
  if (sum !== 0n) throw new Error(`journal entry does not balance (sum ${sum})`);
  return [...byAccount.entries()]
    .filter(([, p]) => p.amount !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, p]) => p);
}

const move = (from: AccountRef, to: AccountRef, amount: bigint): Posting[] => [
  { account: from, amount: -amount },
  { account: to, amount },
];

/** Sandbox credits are issued by the faucet account (it goes negative). */
export function faucetPostings(agentId: string, currency: string, amount: bigint): Posting[] {
  return balancedPostings(move(systemAccount(currency, 'faucet'), agentAccount(agentId, currency, 'available'), amount));
}

export function transferPostings(from: string, to: string, currency: string, amount: bigint): Posting[] {
  return balancedPostings(move(agentAccount(from, currency, 'available'), agentAccount(to, currency, 'available'), amount));
}

/** Hold creation and withdrawal request: available → held. */
export function holdPostings(agentId: string, currency: string, amount: bigint): Posting[] {
  return balancedPostings(move(agentAccount(agentId, currency, 'available'), agentAccount(agentId, currency, 'held'), amount));
}

/** Hold release/expiry, failed or cancelled withdrawal: held → available. */
export function releasePostings(agentId: string, currency: string, amount: bigint): Posting[] {
  return balancedPostings(move(agentAccount(agentId, currency, 'held'), agentAccount(agentId, currency, 'available'), amount));
}

/**
 * Consume a hold of `held`: `amount` leaves it — `amount - fee` to the payee's account (an agent's
 * available balance or a merchant's settlement account), `fee` to the fees account — and
 * `held - amount` goes back to the payer's available balance.
 */
export function consumePostings(input: {
  payer: string;
  payee: AccountRef;
  currency: string;
  held: bigint;
  amount: bigint;
  fee: bigint;
}): Posting[] {
  const { payer, payee, currency, held, amount, fee } = input;
  if (amount < 0n || amount > held || fee < 0n || fee > amount) throw new Error('consume amounts out of range');
  return balancedPostings([
    { account: agentAccount(payer, currency, 'held'), amount: -held },
    { account: payee, amount: amount - fee },
    { account: systemAccount(currency, 'fees'), amount: fee },
    { account: agentAccount(payer, currency, 'available'), amount: held - amount },
  ]);
}

/** A confirmed deposit: money enters through deposits_clearing (it goes negative). */
export function depositPostings(agentId: string, currency: string, amount: bigint): Posting[] {
  return balancedPostings(move(systemAccount(currency, 'deposits_clearing'), agentAccount(agentId, currency, 'available'), amount));
}

/** A completed withdrawal: the held funds leave through withdrawals_clearing (it goes positive). */
export function withdrawalPayoutPostings(agentId: string, currency: string, amount: bigint): Posting[] {
  return balancedPostings(move(agentAccount(agentId, currency, 'held'), systemAccount(currency, 'withdrawals_clearing'), amount));
}

/**
 * Erroneous clear: reverses a settlement in one entry — the payee's account (as in consumePostings)
 * pays back `amount - fee`, the
 * fees account pays back `fee`, the payer gets `amount` back as available. What the settlement
 * returned to the payer (refunded_amount) is already theirs and is not touched.
 */
export function correctionPostings(input: { payer: string; payee: AccountRef; currency: string; amount: bigint; fee: bigint }): Posting[] {
  const { payer, payee, currency, amount, fee } = input;
  if (amount <= 0n || fee < 0n || fee > amount) throw new Error('correction amounts out of range');
  return balancedPostings([
    { account: payee, amount: -(amount - fee) },
    { account: systemAccount(currency, 'fees'), amount: -fee },
    { account: agentAccount(payer, currency, 'available'), amount },
  ]);
}

/** Commerce post-purchase refund: the merchant's settlement account (owner "merchant:<domain>") pays `amount` to the buyer's available balance. */
export function purchaseRefundPostings(input: { merchant: string; buyer: string; currency: string; amount: bigint }): Posting[] {
  if (input.amount <= 0n) throw new Error('purchase refund amount out of range');
  return balancedPostings(move(merchantAccount(input.merchant, input.currency), agentAccount(input.buyer, input.currency, 'available'), input.amount));
}
