import { formatAmount } from '@exchange/platform';
import { key } from '../wallet-harness';
import { bal, CURRENCY, fake, refusedWith, Step, tick, type Model, type Real } from './model';

// Hold steps of the lifecycle model: create, release, consume, and the expiry sweep.

export class CreateHold extends Step {
  constructor(readonly agent: number, readonly amount: bigint, readonly expiresInSec: number | null) {
    super();
  }
  async apply(m: Model, r: Real) {
    const agent = m.agents[this.agent % m.agents.length];
    const expiresAt = this.expiresInSec === null ? undefined : new Date(fake.now + this.expiresInSec * 1000);
    const call = r.t.client.createHold({ agentId: agent, amount: formatAmount(this.amount), currency: CURRENCY, expiresAt, idempotencyKey: key() });
    if (bal(m, agent).available < this.amount) return refusedWith(call, 'insufficient_funds');
    const { hold } = await call;
    bal(m, agent).available -= this.amount;
    bal(m, agent).held += this.amount;
    m.holds.push({ id: hold!.holdId, agent, amount: this.amount, status: 'active', expiresAt: expiresAt?.getTime() ?? null });
  }
  toString() {
    return `CreateHold(${this.agent}, ${this.amount}, ${this.expiresInSec})`;
  }
}

export class ReleaseHold extends Step {
  constructor(readonly index: number) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.holds.length > 0;
  }
  async apply(m: Model, r: Real) {
    const h = m.holds[this.index % m.holds.length];
    const call = r.t.client.releaseHold({ agentId: h.agent, holdId: h.id, idempotencyKey: key() });
    if (h.status !== 'active') return refusedWith(call, 'invalid_state');
    await call;
    h.status = 'released';
    bal(m, h.agent).held -= h.amount;
    bal(m, h.agent).available += h.amount;
  }
  toString() {
    return `ReleaseHold(${this.index})`;
  }
}

export class ConsumeHold extends Step {
  constructor(readonly index: number, readonly to: number, readonly amount: bigint | null) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.holds.length > 0;
  }
  async apply(m: Model, r: Real) {
    const h = m.holds[this.index % m.holds.length];
    const others = m.agents.filter((a) => a !== h.agent);
    const to = others[this.to % others.length];
    const call = r.t.client.consumeHold({
      agentId: h.agent,
      holdId: h.id,
      toAgentId: to,
      amount: this.amount === null ? undefined : formatAmount(this.amount),
      idempotencyKey: key(),
    });
    if (h.status !== 'active') return refusedWith(call, 'invalid_state');
    const consumed = this.amount ?? h.amount;
    if (consumed > h.amount) return refusedWith(call, 'amount_exceeds_hold');
    await call;
    h.status = 'consumed';
    bal(m, h.agent).held -= h.amount;
    bal(m, h.agent).available += h.amount - consumed;
    bal(m, to).available += consumed;
  }
  toString() {
    return `ConsumeHold(${this.index}, ${this.to}, ${this.amount})`;
  }
}

export class Sweep extends Step {
  constructor(readonly advanceSec: number) {
    super();
  }
  async apply(m: Model, r: Real) {
    tick(this.advanceSec * 1000);
    await r.t.wallet.workers.sweepHolds();
    for (const h of m.holds) {
      if (h.status === 'active' && h.expiresAt !== null && h.expiresAt <= fake.now) {
        h.status = 'expired';
        bal(m, h.agent).held -= h.amount;
        bal(m, h.agent).available += h.amount;
      }
    }
  }
  toString() {
    return `Sweep(+${this.advanceSec}s)`;
  }
}
