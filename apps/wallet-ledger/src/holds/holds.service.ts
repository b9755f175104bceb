import { errors, formatAmount, newId, parsePositiveAmount } from '@exchange/platform';
import { agentAccount } from '../domain/accounts';
import { parseCurrency } from '../domain/currency';
import { consumePostings, holdPostings, releasePostings } from '../domain/postings';
import { walletErrors } from '../domain/wallet.errors';
import type { ConsumeHoldCommand, CreateHoldCommand, HoldCommand, HoldResult } from '../domain/wallet.commands';
import type { Hold } from '../domain/wallet.model';
import type { Caller } from '../events/wallet.events';
import { decide, execute, type ResponseCodec } from '../service/execute';
import { activeAgent, claimFor, optionalText, requireText, type MutationDeps } from '../service/use-case';
import { AGENT_CONTROLLER, parseController, requireControlledBy, requireExpiryAllowed } from './hold-control';
import { consumedHold, releasedHold, requireFutureExpiry } from './holds';
import { holdsEvents } from './holds.events';
import type { HoldsRepo } from './holds.repo';

export interface HoldsDeps extends MutationDeps {
  repo: Pick<HoldsRepo, 'hold'>;
  codecs: {
    createHold: ResponseCodec<HoldResult>;
    releaseHold: ResponseCodec<HoldResult>;
    consumeHold: ResponseCodec<HoldResult>;
  };
}

/**
 * Holds: reserve funds (available → held), then release them or pay them out. ReleaseHold and
 * ConsumeHold are the agent's path: they move only holds controlled by `agent` (a service's hold,
 * e.g. the market's escrow, answers hold_controlled_by_<service>, whoever asks).
 */
export class HoldsService {
  constructor(private readonly ctx: HoldsDeps) {}

  /** The hold, if it belongs to `agentId` (another agent's hold is "not found" to this one). */
  async ownedHold(agentId: string, holdId: string): Promise<Hold> {
    const hold = holdId ? await this.ctx.repo.hold(holdId) : undefined;
    if (!hold || hold.agentId !== agentId) throw errors.notFound('hold', holdId);
    return hold;
  }

  /** The owned hold, if `path` (agent, market…) is its controller — checked before its state. */
  async controlledHold(agentId: string, holdId: string, path: string): Promise<Hold> {
    const hold = await this.ownedHold(agentId, holdId);
    requireControlledBy(hold, path);
    return hold;
  }

  async getHold(req: { agentId: string; holdId: string }): Promise<Hold> {
    const agentId = requireText(req.agentId, 'agent_id');
    await this.ctx.agents.get(agentId); // the wallet first: agent_not_found, as every wallet read
    return this.ownedHold(agentId, req.holdId);
  }

  async createHold(req: CreateHoldCommand, caller: Caller): Promise<HoldResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'create_hold');
    const amount = parsePositiveAmount(req.amount);
    const currency = parseCurrency(req.currency);
    const reference = optionalText(req.reference, 'reference');
    const expiresAt = requireFutureExpiry(req.expiresAt, this.ctx.clock());
    const controller = parseController(req.controller);
    requireExpiryAllowed(controller, expiresAt);
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.createHold,
      plan: async () => {
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const hold: Hold = {
          holdId: newId('hld'),
          agentId,
          amount,
          currency,
          status: 'active',
          expiresAt,
          reference,
          consumedAmount: null,
          releasedAmount: null,
          consumedToAgentId: null,
          journalEntryIds: [entryId],
          createdAt: now,
          updatedAt: now,
          controller,
        };
        return {
          result: { hold, idempotentReplayed: false },
          plan: {
            now,
            entry: { entryId, kind: 'hold_create', currency, postings: holdPostings(agentId, currency, amount) },
            writes: [{ table: 'holds', value: hold }],
            events: [holdsEvents.hold('created', hold, caller)],
          },
          onInsufficient: (available) => walletErrors.insufficientFunds(currency, formatAmount(available), formatAmount(amount)),
        };
      },
    });
  }

  async releaseHold(req: HoldCommand, caller: Caller): Promise<HoldResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'release_hold');
    await activeAgent(this.ctx, agentId);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.releaseHold,
      plan: async () => {
        const hold = await this.controlledHold(agentId, req.holdId, AGENT_CONTROLLER);
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const decided = decide(now, () => releasedHold(hold, entryId, now));
        if ('refused' in decided) return decided;
        const after = decided.value;
        return {
          result: { hold: after, idempotentReplayed: false },
          guardWanted: 'released',
          plan: {
            now,
            guard: { entity: 'hold', id: hold.holdId, status: 'active' },
            entry: { entryId, kind: 'hold_release', currency: hold.currency, postings: releasePostings(agentId, hold.currency, hold.amount) },
            writes: [{ table: 'holds', value: after }],
            events: [holdsEvents.hold('released', after, caller)],
          },
        };
      },
    });
  }

  async consumeHold(req: ConsumeHoldCommand, caller: Caller): Promise<HoldResult> {
    const agentId = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(agentId, req, 'consume_hold');
    const to = requireText(req.toAgentId, 'to_agent_id');
    if (to === agentId) throw walletErrors.selfTransfer();
    const amount = req.amount === undefined ? null : parsePositiveAmount(req.amount);
    await Promise.all([activeAgent(this.ctx, agentId), this.ctx.agents.get(to)]);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.consumeHold,
      plan: async () => {
        const hold = await this.controlledHold(agentId, req.holdId, AGENT_CONTROLLER);
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const decided = decide(now, () => consumedHold(hold, { amount, toAgentId: to }, entryId, now));
        if ('refused' in decided) return decided;
        const after = decided.value;
        const postings = consumePostings({
          payer: agentId,
          payee: agentAccount(to, hold.currency, 'available'),
          currency: hold.currency,
          held: hold.amount,
          amount: after.consumedAmount ?? hold.amount,
          fee: 0n,
        });
        return {
          result: { hold: after, idempotentReplayed: false },
          guardWanted: 'consumed',
          plan: {
            now,
            guard: { entity: 'hold', id: hold.holdId, status: 'active' },
            entry: { entryId, kind: 'hold_consume', currency: hold.currency, postings },
            writes: [{ table: 'holds', value: after }],
            events: [holdsEvents.hold('consumed', after, caller)],
          },
        };
      },
    });
  }
}
