import { errors, isId } from '@exchange/platform';
import { BOOST_LOOKBACK_DAYS, type SignalName } from '../domain/boost';
import { DAY_MS } from '../domain/window';

// Matching signals: who may record them, what a valid one is, and the boost request's shape.

/** identity's agent id shape (apps/identity agents/validation.ts): <namespace>:agent:<name>. */
export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}:agent:[a-z0-9][a-z0-9._-]{0,62}$/;
export const SIGNAL_MAX_AGE_DAYS = 30;
export const REQUEST_ID_MAX = 128;
export const MAX_BOOST_CANDIDATES = 200;

export interface TelemetryActor {
  /** Empty for the operator. */
  agentId: string;
  operator: boolean;
}

export interface MatchingSignalRecord {
  signalId: string;
  signal: SignalName;
  /** The acting agent; '' for the operator. */
  recordedBy: string;
  contractId: string;
  sellerId: string;
  listingId: string | null;
  requestId: string | null;
  occurredAt: Date;
  recordedAt: Date;
}

export interface SignalInput {
  /** undefined when the request named no (or an unknown) signal. */
  signal: SignalName | undefined;
  contractId: string;
  sellerId: string;
  listingId?: string;
  requestId?: string;
  occurredAt?: Date;
}

export type CheckedSignal = Omit<MatchingSignalRecord, 'signalId' | 'recordedAt'>;

function invalid(field: string, message: string): never {
  throw errors.invalidArgument('validation_failed', `${field} ${message}`, { field });
}

export function isAgentId(value: string): boolean {
  return AGENT_ID_PATTERN.test(value);
}

/**
 * Agents and the operator: an actor that is neither is refused (the gateway always sends one).
 * The operator acting as an agent (X-Agent-Id) records as that agent, as everywhere else.
 */
export function recorderOf(actor: TelemetryActor | undefined): string {
  if (actor && isAgentId(actor.agentId)) return actor.agentId;
  if (actor?.operator) return '';
  throw errors.permissionDenied('forbidden', 'matching signals are recorded by an agent or the operator');
}

/** Validates a signal; occurred_at defaults to now and must lie within the last 30 days (400 invalid_signal_time). */
export function checkSignal(input: SignalInput, recordedBy: string, now: Date): CheckedSignal {
  if (input.signal === undefined) invalid('signal', 'must be one of impression, click, shortlist, award');
  if (!isId('ctr', input.contractId)) invalid('contract_id', 'must be a contract id (ctr_…)');
  if (!isAgentId(input.sellerId)) invalid('seller_id', 'must look like <namespace>:agent:<name>');
  if (input.listingId !== undefined && !isId('lst', input.listingId)) invalid('listing_id', 'must be a listing id (lst_…)');
  if (input.requestId !== undefined && (input.requestId.length < 1 || input.requestId.length > REQUEST_ID_MAX || !/^[\x21-\x7e]+$/.test(input.requestId))) {
    invalid('request_id', `must be 1-${REQUEST_ID_MAX} printable ASCII characters`);
  }
  const occurredAt = input.occurredAt ?? now;
  if (Number.isNaN(occurredAt.getTime())) invalid('occurred_at', 'must be an RFC 3339 time');
  if (occurredAt.getTime() > now.getTime()) {
    throw errors.invalidArgument('invalid_signal_time', 'occurred_at must not be in the future', { occurred_at: occurredAt.toISOString() });
  }
  if (now.getTime() - occurredAt.getTime() > SIGNAL_MAX_AGE_DAYS * DAY_MS) {
    throw errors.invalidArgument('invalid_signal_time', `occurred_at must be within the last ${SIGNAL_MAX_AGE_DAYS} days`, { occurred_at: occurredAt.toISOString() });
  }
  return {
    signal: input.signal,
    recordedBy,
    contractId: input.contractId,
    sellerId: input.sellerId,
    listingId: input.listingId ?? null,
    requestId: input.requestId ?? null,
    occurredAt,
  };
}

export interface BoostsInput {
  contractId?: string;
  sellerIds: readonly string[];
  sellerId?: string;
  contractIds: readonly string[];
}

/** Candidates: sellers of one contract, or contracts of one seller. */
export type BoostQuery =
  | { kind: 'sellers'; contractId: string; candidates: string[] }
  | { kind: 'contracts'; sellerId: string; candidates: string[] };

/** Exactly one of the two shapes, valid ids, at most 200 candidates (duplicates collapse). */
export function checkBoostQuery(input: BoostsInput): BoostQuery {
  const { contractId, sellerId } = input;
  if ((contractId === undefined) === (sellerId === undefined)) invalid('contract_id', 'or seller_id: give exactly one');
  if (contractId !== undefined) {
    if (input.sellerIds.length > MAX_BOOST_CANDIDATES) invalid('seller_ids', `must hold at most ${MAX_BOOST_CANDIDATES} ids`);
    if (!isId('ctr', contractId)) invalid('contract_id', 'must be a contract id (ctr_…)');
    if (input.contractIds.length > 0) invalid('contract_ids', 'is only for seller_id');
    if (input.sellerIds.some((id) => !isAgentId(id))) invalid('seller_ids', 'must be agent ids');
    return { kind: 'sellers', contractId, candidates: [...new Set(input.sellerIds)] };
  }
  const seller = sellerId as string;
  if (input.contractIds.length > MAX_BOOST_CANDIDATES) invalid('contract_ids', `must hold at most ${MAX_BOOST_CANDIDATES} ids`);
  if (!isAgentId(seller)) invalid('seller_id', 'must look like <namespace>:agent:<name>');
  if (input.sellerIds.length > 0) invalid('seller_ids', 'is only for contract_id');
  if (input.contractIds.some((id) => !isId('ctr', id))) invalid('contract_ids', 'must be contract ids (ctr_…)');
  return { kind: 'contracts', sellerId: seller, candidates: [...new Set(input.contractIds)] };
}

/** Signals older than this do not count toward a boost. */
export function boostSince(now: Date): Date {
  return new Date(now.getTime() - BOOST_LOOKBACK_DAYS * DAY_MS);
}
