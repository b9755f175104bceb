import { fromBase64, SIGNATURE_LENGTH } from '@exchange/crypto';
import { errors, isSupportedCurrency, parsePositiveAmount } from '@exchange/platform';
import type { Autonomy, AutonomyMode, MandateScope } from './mandate.model';
import { mandateSignedPayload, type MandateSignedPayload } from './mandate-signing';

// What a client sends to create a mandate or replace its autonomy, checked before anything is
// looked up or stored: every refusal is a 400 that changes nothing.

export interface AutonomyInput {
  /** undefined = not given (UNSPECIFIED). */
  mode: AutonomyMode | undefined;
  stepUpThreshold: { amount: string; currency: string } | undefined;
  approvalForNewMerchants: boolean;
  dailyLimit: string | undefined;
}

export interface CreateMandateInput {
  signerAgentId: string;
  agentId: string;
  scopeMerchants: string[];
  scopeCategories: string[];
  scopeSkus: string[];
  perTransaction: string;
  totalLimit: string;
  currency: string;
  expiresAt: Date | undefined;
  signature: string;
  autonomy: AutonomyInput | undefined;
}

/** A checked mandate, ready for the signature check and the insert. */
export interface MandateDraft {
  signerAgentId: string;
  agentId: string;
  scope: MandateScope;
  limits: { perTransaction: bigint; total: bigint; currency: string };
  expiresAt: Date;
  signature: string;
  signedPayload: MandateSignedPayload;
  autonomy: Autonomy;
}

/** A mandate created without autonomy settings spends on its own, within its limits. */
export const DEFAULT_AUTONOMY: Autonomy = { mode: 'autonomous', stepUpThreshold: null, approvalForNewMerchants: false, dailyLimit: null };

export const SCOPE_MAX_ENTRIES = 100;
export const SCOPE_ENTRY_MAX_CHARS = 200;
const ID_MAX_CHARS = 128;
// 1–200 characters, none of them control, format, surrogate or unassigned code points.
const PRINTABLE_ENTRY = new RegExp(`^[^\\p{C}]{1,${SCOPE_ENTRY_MAX_CHARS}}$`, 'u');
// Lower-case DNS name: dot-separated labels of a-z, 0-9 and inner '-', at most 253 characters.
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
// Keeps expires_at in toISOString's four-digit-year form (the signed form).
const LATEST_EXPIRY = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });

function requiredId(value: string, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(field, `${field} is required`);
  if (value.length > ID_MAX_CHARS || !/^[\x21-\x7e]+$/.test(value)) throw invalid(field, `${field} is not an agent id`);
  return value;
}

function scopeList(values: string[], field: string): string[] {
  if (values.length > SCOPE_MAX_ENTRIES) throw invalid(field, `${field} has more than ${SCOPE_MAX_ENTRIES} entries`);
  for (const v of values) {
    if (!PRINTABLE_ENTRY.test(v)) throw invalid(field, `each ${field} entry is 1-${SCOPE_ENTRY_MAX_CHARS} printable characters`);
  }
  return [...values];
}

function merchants(values: string[]): string[] {
  const list = scopeList(values, 'scope_merchants');
  const bad = list.find((d) => !DNS_NAME.test(d));
  if (bad !== undefined) {
    throw errors.invalidArgument('invalid_merchant_domain', 'each scope_merchants entry is a lower-case DNS name (no scheme, port or path)', {
      field: 'scope_merchants',
      value: bad.slice(0, 64),
    });
  }
  return list;
}

/** Autonomy settings in full (a PUT replaces them all); amounts in the mandate's currency. */
export function validateAutonomy(input: AutonomyInput, currency: string): Autonomy {
  if (input.mode === undefined) throw invalid('autonomy.mode', 'autonomy.mode is required (autonomous, step_up or manual)');
  let stepUpThreshold: Autonomy['stepUpThreshold'] = null;
  if (input.stepUpThreshold !== undefined) {
    const amount = parsePositiveAmount(input.stepUpThreshold.amount);
    // An empty currency means the mandate's; any other currency could never compare with a total.
    const thresholdCurrency = input.stepUpThreshold.currency === '' ? currency : input.stepUpThreshold.currency;
    if (thresholdCurrency !== currency) {
      throw invalid('autonomy.step_up_threshold.currency', `step_up_threshold must be in the mandate's currency ${currency}`);
    }
    stepUpThreshold = { amount, currency };
  }
  if (input.mode === 'step_up' && stepUpThreshold === null) {
    throw invalid('autonomy.step_up_threshold', 'mode step_up needs a step_up_threshold');
  }
  const dailyLimit = input.dailyLimit === undefined ? null : parsePositiveAmount(input.dailyLimit);
  return { mode: input.mode, stepUpThreshold, approvalForNewMerchants: input.approvalForNewMerchants === true, dailyLimit };
}

/** A create request's fields, checked in a fixed order; `now` is the service clock. */
export function validateCreateMandate(input: CreateMandateInput, now: Date): MandateDraft {
  const signerAgentId = requiredId(input.signerAgentId, 'signer_agent_id');
  const agentId = requiredId(input.agentId, 'agent_id');
  const scope = {
    merchants: merchants(input.scopeMerchants),
    categories: scopeList(input.scopeCategories, 'scope_categories'),
    skus: scopeList(input.scopeSkus, 'scope_skus'),
  };
  const perTransaction = parsePositiveAmount(input.perTransaction);
  const total = parsePositiveAmount(input.totalLimit);
  if (total < perTransaction) throw invalid('total_limit', 'total_limit must be at least per_transaction');
  if (!isSupportedCurrency(input.currency)) {
    throw errors.invalidArgument('unsupported_currency', 'currency is not supported', { currency: String(input.currency).slice(0, 16) });
  }
  const expiresAt = input.expiresAt;
  if (expiresAt === undefined || Number.isNaN(expiresAt.getTime())) throw invalid('expires_at', 'expires_at is required');
  if (expiresAt.getTime() <= now.getTime()) throw invalid('expires_at', 'expires_at must be in the future');
  if (expiresAt.getTime() > LATEST_EXPIRY) throw invalid('expires_at', 'expires_at must be before the year 10000');
  if (input.signature === '') throw invalid('signature', 'signature is required');
  if (!isSignatureShaped(input.signature)) {
    throw errors.invalidArgument('mandate_signature_invalid', 'signature is not base64 of a 64-byte ed25519 signature', { field: 'signature' });
  }
  const autonomy = input.autonomy === undefined ? DEFAULT_AUTONOMY : validateAutonomy(input.autonomy, input.currency);
  const signedPayload = mandateSignedPayload({
    signerAgentId,
    agentId,
    scope,
    limits: { perTransaction: input.perTransaction, total: input.totalLimit, currency: input.currency },
    expiresAt,
  });
  return { signerAgentId, agentId, scope, limits: { perTransaction, total, currency: input.currency }, expiresAt, signature: input.signature, signedPayload, autonomy };
}

/** Base64 (strict, padded) of exactly 64 bytes: anything else cannot verify, so identity is not asked. */
function isSignatureShaped(signature: string): boolean {
  if (signature.length > 100) return false;
  try {
    return fromBase64(signature).length === SIGNATURE_LENGTH;
  } catch {
    return false;
  }
}

/** An optional idempotency key: absent/empty → none; else 1–255 printable ASCII (400 invalid_idempotency_key). */
export function idempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[\x20-\x7e]{1,255}$/.test(value)) {
    throw errors.invalidArgument('invalid_idempotency_key', 'idempotency_key must be 1-255 printable ASCII characters');
  }
  return value;
}
