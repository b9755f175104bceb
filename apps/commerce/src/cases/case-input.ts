import { errors, formatAmount, parseAmount } from '@exchange/platform';
import { CASE_TYPES, type CaseStatus, type CaseType, type PurchaseFacts } from './case.model';

// Request checks of the cases area (400 validation_failed / invalid_amount) and the amount rules
// (409 refund_exceeds_paid). Pure: the service calls them before and inside its transactions.

export const REASON_MAX = 2000;
export const NOTE_MAX = 2000;
export const EVIDENCE_REF_MAX = 512;
/** Per request, and in total on one case. */
export const EVIDENCE_REFS_PER_REQUEST = 20;
export const EVIDENCE_REFS_PER_CASE = 100;
const ID_MAX = 128;

export interface CreateCaseInput {
  dealId: string;
  type: CaseType | undefined;
  reason: string;
  /** Decimal string; absent = what remains refundable at opening. */
  amount?: string;
  evidenceRefs: string[];
  idempotencyKey: string;
}

export interface CaseDraft {
  dealId: string;
  type: CaseType;
  reason: string;
  /** Micro-units; null = the default (what remains). */
  amount: bigint | null;
  evidenceRefs: string[];
}

export interface UpdateCaseInput {
  caseId: string;
  status?: CaseStatus;
  addEvidenceRefs: string[];
  note?: string;
}

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });
// Control characters would let a stored text forge lines in logs and documents.
const hasControl = (s: string) => [...s].some((ch) => {
  const code = ch.charCodeAt(0);
  return (code < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r') || code === 0x7f;
});

function text(value: string, field: string, max: number): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalid(field, `${field} is required`);
  if (trimmed.length > max) throw invalid(field, `${field} is longer than ${max} characters`);
  if (hasControl(trimmed)) throw invalid(field, `${field} contains control characters`);
  return trimmed;
}

export function requireId(value: string, field: string): string {
  if (value === '' || value.length > ID_MAX || !/^[A-Za-z0-9_.:-]+$/.test(value)) throw invalid(field, `${field} is not a valid id`);
  return value;
}

/** Each ref 1-512 printable characters, at most 20 per request, duplicates in the request dropped. */
export function evidenceRefs(refs: readonly string[], field: string): string[] {
  if (refs.length > EVIDENCE_REFS_PER_REQUEST) throw invalid(field, `at most ${EVIDENCE_REFS_PER_REQUEST} ${field} per request`);
  const out: string[] = [];
  for (const ref of refs) {
    const r = text(ref, field, EVIDENCE_REF_MAX);
    if (!out.includes(r)) out.push(r);
  }
  return out;
}

/** A positive amount (400 invalid_amount otherwise). */
export function positiveAmount(value: string, field: string): bigint {
  const micro = parseAmount(value);
  if (micro <= 0n) throw errors.invalidArgument('invalid_amount', `${field} must be greater than 0`, { field, value: value.slice(0, 64) });
  return micro;
}

export function validateCreateCase(input: CreateCaseInput): CaseDraft {
  const dealId = requireId(input.dealId, 'deal_id');
  if (input.type === undefined || !CASE_TYPES.includes(input.type)) throw invalid('type', 'type must be return, refund or chargeback');
  return {
    dealId,
    type: input.type,
    reason: text(input.reason, 'reason', REASON_MAX),
    amount: input.amount === undefined || input.amount === '' ? null : positiveAmount(input.amount, 'amount'),
    evidenceRefs: evidenceRefs(input.evidenceRefs, 'evidence_refs'),
  };
}

export interface UpdateDraft {
  caseId: string;
  status?: CaseStatus;
  addEvidenceRefs: string[];
  note: string | null;
}

/** An update moves the status, adds evidence, or both; a note alone changes nothing (400). */
export function validateUpdateCase(input: UpdateCaseInput): UpdateDraft {
  const caseId = requireId(input.caseId, 'case_id');
  const refs = evidenceRefs(input.addEvidenceRefs, 'evidence_refs');
  if (input.status === undefined && refs.length === 0) throw invalid('status', 'status or evidence_refs is required');
  const note = input.note === undefined || input.note === '' ? null : text(input.note, 'note', NOTE_MAX);
  return { caseId, status: input.status, addEvidenceRefs: refs, note };
}

/** What a purchase can still give back. */
export function remaining(p: Pick<PurchaseFacts, 'amount' | 'refunded'>): bigint {
  return p.amount - p.refunded;
}

function exceeds(p: Pick<PurchaseFacts, 'amount' | 'refunded'>, requested: bigint) {
  return errors.failedPrecondition('refund_exceeds_paid', 'the refunds of this purchase would add up to more than was paid', {
    paid: formatAmount(p.amount),
    refunded: formatAmount(p.refunded),
    requested: formatAmount(requested),
  });
}

/**
 * The amount a new case asks back: the requested one, or what remains refundable; more than
 * remains (or nothing left) is 409 refund_exceeds_paid.
 */
export function openingAmount(p: Pick<PurchaseFacts, 'amount' | 'refunded'>, requested: bigint | null): bigint {
  const left = remaining(p);
  const amount = requested ?? left;
  if (amount <= 0n || amount > left) throw exceeds(p, amount);
  return amount;
}

/** At approval, under the purchase's row lock: refunded + amount ≤ paid, else 409 refund_exceeds_paid. */
export function requireRefundFits(p: Pick<PurchaseFacts, 'amount' | 'refunded'>, amount: bigint): void {
  if (p.refunded + amount > p.amount) throw exceeds(p, amount);
}
