import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { canonicalize, sha256Hex } from '@exchange/crypto';
import { DomainError, errors, formatAmount } from '@exchange/platform';
import type pg from 'pg';
import { isUniqueViolation, withTransaction } from '@exchange/db';
import type { MerchantCall, MerchantCallInput, MerchantOutcome, RecordedMessage, UcpOperation } from '../domain/merchant.ports';
import type { UcpCheckout } from '../domain/ucp-types';
import { appendEvidence } from '../evidence/evidence.repo';
import type { EvidenceInput } from '../evidence/evidence.model';
import type { ApprovalNeed, MandateRecord } from '../mandates/mandate.model';
import { checkSpend } from '../mandates/mandate-rules';
import { getMandate } from '../mandates/mandates.repo';
import type { CommerceRuntime } from '../service/runtime';
import { findIdempotency, insertIdempotency } from './checkout-idempotency.repo';
import { spendAttemptOf, utcMidnight } from './session-rules';
import type { CheckoutSessionRecord } from './session.model';
import { getSession, hasPurchasedFrom, purchasedSince } from './sessions.repo';

// What the checkout use cases share: the merchant call (its messages become evidence, its
// failures problem codes), the mandate question, idempotency records and the session read.

export type CheckoutDeps = Pick<CommerceRuntime, 'pool' | 'agents' | 'merchants' | 'clock' | 'logger' | 'notify' | 'exchangeEnv'>;

/** Recorded merchant messages as evidence items. */
export function evidenceOf(messages: readonly RecordedMessage[]): EvidenceInput[] {
  return messages.map((m) => ({ kind: m.kind, operation: m.operation, content: { ...m.content }, schemaResult: m.schemaResult }));
}

/** The problem a merchant outcome that is not a checkout answers with. */
export function merchantFailure(outcome: Exclude<MerchantOutcome, { kind: 'checkout' }>): DomainError {
  switch (outcome.kind) {
    case 'business_error':
      return errors.failedPrecondition('checkout_not_ready', 'the merchant refused the checkout', {
        messages: outcome.messages,
        ...(outcome.continueUrl ? { continue_url: outcome.continueUrl } : {}),
      });
    case 'protocol_error':
      return new DomainError(status.UNAVAILABLE, 'merchant_protocol_error', 'the merchant answered outside the UCP protocol', { reason: outcome.reason });
    case 'unavailable':
      return new DomainError(status.UNAVAILABLE, 'merchant_unavailable', 'the merchant could not be reached', { reason: outcome.reason });
    case 'timeout':
      return new DomainError(status.DEADLINE_EXCEEDED, 'merchant_timeout', 'the merchant did not answer in time');
  }
}

/** The merchant's checkout, or the mapped failure (with the call's evidence to keep). */
export type MerchantResult = { ok: true; checkout: UcpCheckout; evidence: EvidenceInput[] } | { ok: false; error: DomainError; evidence: EvidenceInput[] };

export async function callMerchant(deps: Pick<CheckoutDeps, 'merchants'>, domain: string, op: UcpOperation, input: MerchantCallInput): Promise<MerchantResult> {
  const call: MerchantCall = await deps.merchants.call(domain, op, input);
  const evidence = evidenceOf(call.messages);
  if (call.outcome.kind === 'checkout') return { ok: true, checkout: call.outcome.checkout, evidence };
  return { ok: false, error: merchantFailure(call.outcome), evidence };
}

/** Keeps a failed exchange with the merchant as evidence of the session, then throws its problem. */
export async function recordAndThrow(deps: Pick<CheckoutDeps, 'pool' | 'clock'>, sessionId: string, evidence: EvidenceInput[], error: DomainError): Promise<never> {
  if (evidence.length > 0) await withTransaction(deps.pool, (client) => appendEvidence(client, sessionId, evidence, deps.clock()));
  throw error;
}

/** The session or 404 checkout_session_not_found. */
export async function loadSession(db: pg.Pool | pg.PoolClient, sessionId: string, forUpdate = false): Promise<CheckoutSessionRecord> {
  const s = sessionId === '' ? null : await getSession(db, sessionId, { forUpdate });
  if (!s) throw errors.notFound('checkout_session', sessionId);
  return s;
}

/** The session an earlier request with the same key answered (its stored response names it). */
export async function replayedSession(db: pg.Pool, response: Record<string, unknown>): Promise<{ session: CheckoutSessionRecord; replayed: true }> {
  return { session: await loadSession(db, String(response['commerce_session_id'] ?? '')), replayed: true };
}

/** The mandate or 404 mandate_not_found. */
export async function loadMandate(db: pg.Pool | pg.PoolClient, mandateId: string): Promise<MandateRecord> {
  const m = mandateId === '' ? null : await getMandate(db, mandateId);
  if (!m) throw errors.notFound('mandate', mandateId);
  return m;
}

/**
 * Asks the mandate about a merchant checkout: throws the 403 of the first broken rule, else the
 * approval it needs. Today's spend = settled purchases since UTC midnight + what completes in
 * flight hold (the mandate's reserved).
 */
export async function mandateVerdict(
  db: pg.Pool | pg.PoolClient,
  mandate: MandateRecord,
  s: { buyerAgentId: string; merchantDomain: string },
  checkout: UcpCheckout,
  total: bigint,
  now: Date,
): Promise<ApprovalNeed> {
  const [knownMerchant, spentToday] = await Promise.all([hasPurchasedFrom(db, s.buyerAgentId, s.merchantDomain), purchasedSince(db, mandate.mandateId, utcMidnight(now))]);
  return checkSpend(mandate, spendAttemptOf(s, checkout, total, { knownMerchant, spentToday: spentToday + mandate.reserved, now }));
}

/** The evidence item of a mandate check (what was asked and the answer). */
export function mandateEvidence(mandate: MandateRecord, total: bigint, currency: string, need: ApprovalNeed): EvidenceInput {
  return {
    kind: 'mandate_check',
    operation: 'mandate_check',
    content: { mandate_id: mandate.mandateId, total: formatAmount(total), currency, result: need === null ? 'allowed' : `approval:${need}` },
    schemaResult: 'not_applicable',
  };
}

/** One idempotent request: its record (scope, rpc, key) and the hash of what it asked. */
export interface Idempotency {
  scope: string;
  rpc: string;
  key: string;
  requestHash: string;
}

export function idempotencyOf(scope: string, rpc: string, key: string | undefined, request: Record<string, unknown>): Idempotency | undefined {
  if (key === undefined) return undefined;
  return { scope, rpc, key, requestHash: sha256Hex(canonicalize({ rpc, ...request })) };
}

/** The stored response of an earlier request with this key (same request), or null; 422 idempotency_key_reused for another request. */
export async function priorResponse(db: pg.Pool, idem: Idempotency | undefined): Promise<Record<string, unknown> | null> {
  if (!idem) return null;
  const hit = await findIdempotency(db, idem.scope, idem.rpc, idem.key);
  if (!hit) return null;
  if (hit.requestHash !== idem.requestHash) throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
  return hit.response;
}

/** Stores the response in the change's transaction. */
export async function rememberResponse(client: pg.PoolClient, idem: Idempotency | undefined, response: Record<string, unknown>, now: Date): Promise<void> {
  if (idem) await insertIdempotency(client, { ...idem, response, now });
}

/** A twin request with the same key committed first: its response, to replay. */
export async function twinResponse(db: pg.Pool, idem: Idempotency | undefined, err: unknown): Promise<Record<string, unknown> | null> {
  if (!idem || !isUniqueViolation(err, 'idempotency_records_pkey')) return null;
  return priorResponse(db, idem);
}

/** The Idempotency-Key sent to the merchant: derived from the buyer's key (a retry repeats it), else fresh. */
export function merchantIdempotencyKey(derive: (key: string) => string, idem: Idempotency | undefined): string {
  return idem ? derive(idem.key) : randomUUID();
}

export function actorName(actor: { agentId: string; operator: boolean }): string {
  return actor.operator ? 'operator' : `agent:${actor.agentId}`;
}
