import { formatAmount } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { key } from '../wallet-harness';
import { ATTESTED_LIMIT, bal, CURRENCY, refusedWith, Step, type Model, type Real } from './model';

// Deposit and withdrawal steps of the lifecycle model (the payout processor included).

export class CreateDeposit extends Step {
  constructor(readonly agent: number, readonly amount: bigint) {
    super();
  }
  async apply(m: Model, r: Real) {
    const agent = m.agents[this.agent % m.agents.length];
    const { deposit } = await r.t.client.createDeposit({
      agentId: agent,
      amount: formatAmount(this.amount),
      currency: CURRENCY,
      method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX,
      idempotencyKey: key(),
    });
    m.deposits.push({ id: deposit!.depositId, agent, amount: this.amount, status: 'pending' });
  }
  toString() {
    return `CreateDeposit(${this.agent}, ${this.amount})`;
  }
}

export class ResolveDeposit extends Step {
  constructor(readonly index: number, readonly confirm: boolean) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.deposits.length > 0;
  }
  async apply(m: Model, r: Real) {
    const d = m.deposits[this.index % m.deposits.length];
    const req = { agentId: d.agent, depositId: d.id, idempotencyKey: key() };
    const call = this.confirm ? r.t.client.confirmDeposit(req) : r.t.client.expireDeposit(req);
    if (d.status !== 'pending') return refusedWith(call, 'invalid_state');
    await call;
    d.status = this.confirm ? 'confirmed' : 'expired';
    if (this.confirm) bal(m, d.agent).available += d.amount;
  }
  toString() {
    return `${this.confirm ? 'Confirm' : 'Expire'}Deposit(${this.index})`;
  }
}

export class CreateWithdrawal extends Step {
  constructor(readonly agent: number, readonly amount: bigint, readonly fails: boolean) {
    super();
  }
  async apply(m: Model, r: Real) {
    const agent = m.agents[this.agent % m.agents.length];
    const destinations = m.destinations.get(agent)!;
    const call = r.t.client.createWithdrawal({
      agentId: agent,
      amount: formatAmount(this.amount),
      currency: CURRENCY,
      payoutDestinationId: this.fails ? destinations.fail : destinations.ok,
      idempotencyKey: key(),
    });
    const used = m.usedToday.get(agent) ?? 0n;
    if (used + this.amount > ATTESTED_LIMIT) return refusedWith(call, 'withdrawal_limit_exceeded');
    if (bal(m, agent).available < this.amount) return refusedWith(call, 'insufficient_funds');
    const { withdrawal } = await call;
    m.usedToday.set(agent, used + this.amount);
    bal(m, agent).available -= this.amount;
    bal(m, agent).held += this.amount;
    m.withdrawals.push({ id: withdrawal!.withdrawalId, agent, amount: this.amount, status: 'requested', fails: this.fails });
  }
  toString() {
    return `CreateWithdrawal(${this.agent}, ${this.amount}, ${this.fails ? 'fails' : 'ok'})`;
  }
}

function refund(m: Model, w: Model['withdrawals'][number]): void {
  bal(m, w.agent).held -= w.amount;
  bal(m, w.agent).available += w.amount;
  m.usedToday.set(w.agent, (m.usedToday.get(w.agent) ?? 0n) - w.amount);
}

export class CancelWithdrawal extends Step {
  constructor(readonly index: number) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.withdrawals.length > 0;
  }
  async apply(m: Model, r: Real) {
    const w = m.withdrawals[this.index % m.withdrawals.length];
    const call = r.t.client.cancelWithdrawal({ agentId: w.agent, withdrawalId: w.id, idempotencyKey: key() });
    if (w.status !== 'requested') return refusedWith(call, 'invalid_state');
    await call;
    w.status = 'cancelled';
    refund(m, w);
  }
  toString() {
    return `CancelWithdrawal(${this.index})`;
  }
}

export class ProcessPayouts extends Step {
  async apply(m: Model, r: Real) {
    await r.t.wallet.workers.processPayouts();
    for (const w of m.withdrawals) {
      if (w.status === 'requested') w.status = 'processing';
      else if (w.status === 'processing' && w.fails) {
        w.status = 'failed';
        refund(m, w);
      } else if (w.status === 'processing') {
        w.status = 'completed';
        bal(m, w.agent).held -= w.amount;
      }
    }
  }
  toString() {
    return 'ProcessPayouts';
  }
}
