import { errors, isDnsName, isSupportedCurrency, parsePositiveAmount } from '@exchange/platform';
import type { IntentActor, IntentRecord } from './intent.model';

// What a client sends to create an intent, checked in a fixed order before anything is stored:
// every refusal is a 400 (or the 403 of a caller acting for another agent) that changes nothing.

export interface CreateIntentInput {
  agentId: string;
  description: string;
  merchants: string[];
  skus: string[];
  /** Absent when the request had no budget. */
  budget: { amount: string; currency: string } | undefined;
  requiresRefundability: boolean;
  expiresAt: Date | undefined;
}

export type IntentDraft = Omit<IntentRecord, 'intentId' | 'createdAt'>;

export const DESCRIPTION_MAX_CHARS = 2000;
export const LIST_MAX_ENTRIES = 100;
const ENTRY_MAX_CHARS = 200;
const ID_MAX_CHARS = 128;
// An intent is a standing instruction, not a mandate for ever: at most a year ahead.
export const MAX_INTENT_LIFETIME_MS = 366 * 86_400_000;
const PRINTABLE_ENTRY = new RegExp(`^[^\\p{C}]{1,${ENTRY_MAX_CHARS}}$`, 'u');

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });

/** The agent itself or the operator creates an intent for it (403 acting_agent_mismatch otherwise). */
export function requireIntentCreator(agentId: string, actor: IntentActor): void {
  if (actor.operator) return;
  if (actor.agentId === null || actor.agentId !== agentId) {
    throw errors.permissionDenied('acting_agent_mismatch', 'agent_id must be the acting agent', { field: 'agent_id' });
  }
}

function agentIdOf(value: string): string {
  if (value === '') throw invalid('agent_id', 'agent_id is required');
  if (value.length > ID_MAX_CHARS || !/^[\x21-\x7e]+$/.test(value)) throw invalid('agent_id', 'agent_id is not an agent id');
  return value;
}

function descriptionOf(value: string): string {
  // Counted in code points, as a client counts characters.
  const length = [...value].length;
  if (value.trim() === '' || length > DESCRIPTION_MAX_CHARS) throw invalid('description', `description is 1-${DESCRIPTION_MAX_CHARS} characters, not only spaces`);
  return value;
}

function listOf(values: string[], field: string): string[] {
  if (values.length > LIST_MAX_ENTRIES) throw invalid(field, `${field} has more than ${LIST_MAX_ENTRIES} entries`);
  if (values.some((v) => !PRINTABLE_ENTRY.test(v))) throw invalid(field, `each ${field} entry is 1-${ENTRY_MAX_CHARS} printable characters`);
  return [...new Set(values)];
}

function merchantsOf(values: string[]): string[] {
  const list = listOf(values, 'merchants');
  const bad = list.find((d) => !isDnsName(d));
  if (bad !== undefined) {
    throw errors.invalidArgument('invalid_merchant_domain', 'each merchants entry is a lower-case DNS name (no scheme, port or path)', {
      field: 'merchants',
      value: bad.slice(0, 64),
    });
  }
  return list;
}

function budgetOf(budget: CreateIntentInput['budget']): { budget: bigint; currency: string } {
  if (budget === undefined) throw invalid('budget', 'budget is required');
  const amount = parsePositiveAmount(budget.amount);
  if (!isSupportedCurrency(budget.currency)) {
    throw errors.invalidArgument('unsupported_currency', 'budget.currency is not supported', { currency: String(budget.currency).slice(0, 16) });
  }
  return { budget: amount, currency: budget.currency };
}

function expiryOf(expiresAt: Date | undefined, now: Date): Date {
  if (expiresAt === undefined || Number.isNaN(expiresAt.getTime())) throw invalid('expires_at', 'expires_at is required');
  if (expiresAt.getTime() <= now.getTime()) throw invalid('expires_at', 'expires_at must be in the future');
  if (expiresAt.getTime() > now.getTime() + MAX_INTENT_LIFETIME_MS) throw invalid('expires_at', 'expires_at is at most 366 days ahead');
  return expiresAt;
}

/** The request's fields checked in order (agent, description, merchants, skus, budget, expiry); `now` is the service clock. */
export function validateCreateIntent(input: CreateIntentInput, now: Date): IntentDraft {
  return {
    agentId: agentIdOf(input.agentId),
    description: descriptionOf(input.description),
    merchants: merchantsOf(input.merchants),
    skus: listOf(input.skus, 'skus'),
    ...budgetOf(input.budget),
    requiresRefundability: input.requiresRefundability === true,
    expiresAt: expiryOf(input.expiresAt, now),
  };
}
