import { commerceV1Wire, type commerceV1 } from '@exchange/proto';
import { CommerceContractError, contractChecks } from '../../lib/mapper-kit';
import type { CheckoutOriginJson, CheckoutSessionJson, PurchaseJson } from './checkout.schemas';
import type { CheckoutCasefileVerdictJson, EvidenceItemJson } from './evidence.schemas';
import { NEGOTIATION_STATUSES, type MerchantProfileJson, type NegotiationJson } from './profile.schemas';
import { WEBHOOK_SCHEMES, type WebhookVerdictJson } from './webhooks.schemas';

// Proto → REST for commerce: sessions, purchases, evidence, profiles, negotiation, verdicts.
// Enums through the generated commerceV1Wire tables; UCP JSON text fields (`*_json`) become the
// objects they hold. Pure functions, no I/O.

const { required, enumToJson, parsedJson } = contractChecks((what) => new CommerceContractError(what));
const iso = (date: Date | undefined, what: string) => required(date, what).toISOString();

/** JSON text that must hold an object (a profile, a checkout, a docket). */
function objectJson(text: string, what: string): Record<string, unknown> {
  const value = parsedJson(text, what);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CommerceContractError(what);
  return value as Record<string, unknown>;
}

function oneOf<const T extends readonly string[]>(names: T, value: string, what: string): T[number] {
  if (!names.includes(value)) throw new CommerceContractError(what);
  return value as T[number];
}

export function sessionToJson(session: commerceV1.CheckoutSession | undefined): CheckoutSessionJson {
  const s = required(session, 'checkout session');
  return {
    commerce_session_id: s.commerceSessionId,
    buyer_agent_id: s.buyerAgentId,
    mandate_id: s.mandateId,
    merchant_domain: s.merchantDomain,
    mode: enumToJson(commerceV1Wire.sessionMode, s.mode, 'session mode'),
    status: enumToJson(commerceV1Wire.checkoutStatus, s.status, 'checkout status'),
    approval: enumToJson(commerceV1Wire.approvalState, s.approval, 'approval state'),
    approval_reason: s.approvalReason ?? null,
    merchant_checkout_id: s.merchantCheckoutId,
    currency: s.currency,
    total: s.total,
    list_total: s.listTotal,
    savings: s.savings,
    discount_codes: [...s.discountCodes],
    merchant_checkout: objectJson(s.merchantCheckoutJson, 'merchant_checkout_json'),
    payment_stage: enumToJson(commerceV1Wire.paymentStage, s.paymentStage, 'payment stage'),
    hold_id: s.holdId ?? null,
    deal_id: s.dealId ?? null,
    receipt_id: s.receiptId ?? null,
    order_id: s.orderId ?? null,
    continue_url: s.continueUrl ?? null,
    evidence_head: s.evidenceHead,
    intent_id: s.intentId ?? null,
    origin: originToJson(s.origin),
    failure_reason: s.failureReason ?? null,
    created_at: iso(s.createdAt, 'session created_at'),
    updated_at: iso(s.updatedAt, 'session updated_at'),
  };
}

export function purchaseToJson(p: commerceV1.Purchase): PurchaseJson {
  return {
    deal_id: p.dealId,
    commerce_session_id: p.commerceSessionId,
    buyer_agent_id: p.buyerAgentId,
    merchant_domain: p.merchantDomain,
    amount: p.amount,
    currency: p.currency,
    receipt_id: p.receiptId,
    receipt: objectJson(p.receiptJson, 'purchase receipt_json'),
    order_id: p.orderId ?? null,
    completed_at: iso(p.completedAt, 'purchase completed_at'),
    origin: originToJson(p.origin),
  };
}

/** The one id an origin names; none (or an empty message) is null. */
export function originToJson(o: commerceV1.CheckoutOrigin | undefined): CheckoutOriginJson | null {
  if (o?.contractId) return { contract_id: o.contractId };
  if (o?.workflowRunId) return { workflow_run_id: o.workflowRunId };
  return null;
}

/** REST origin → proto (absent stays absent; commerce checks it names exactly one). */
export function originFromJson(o: CheckoutOriginJson | undefined): commerceV1.CheckoutOrigin | undefined {
  return o === undefined ? undefined : { contractId: o.contract_id, workflowRunId: o.workflow_run_id };
}

export function evidenceToJson(e: commerceV1.EvidenceItem): EvidenceItemJson {
  return {
    evidence_id: e.evidenceId,
    commerce_session_id: e.commerceSessionId,
    seq: e.seq,
    kind: e.kind,
    operation: e.operation,
    content: objectJson(e.contentJson, 'evidence content_json'),
    content_sha256: e.contentSha256,
    prev_hash: e.prevHash,
    hash: e.hash,
    schema_result: e.schemaResult,
    recorded_at: iso(e.recordedAt, 'evidence recorded_at'),
  };
}

export function merchantProfileToJson(res: commerceV1.GetMerchantProfileResponse): MerchantProfileJson {
  return {
    merchant_domain: res.merchantDomain,
    profile: objectJson(res.profileJson, 'profile_json'),
    source_url: res.sourceUrl,
    fetched_at: iso(res.fetchedAt, 'profile fetched_at'),
    cache_expires_at: iso(res.cacheExpiresAt, 'profile cache_expires_at'),
  };
}

/** The platform profile exactly as commerce serves it (an object, else a contract breach). */
export function platformProfileToJson(res: commerceV1.GetPlatformProfileResponse): Record<string, unknown> {
  return objectJson(res.profileJson, 'platform profile_json');
}

export function negotiationToJson(res: commerceV1.NegotiateResponse): NegotiationJson {
  const messages = parsedJson(res.messagesJson === '' ? '[]' : res.messagesJson, 'negotiation messages_json');
  if (!Array.isArray(messages)) throw new CommerceContractError('negotiation messages_json');
  return {
    merchant_domain: res.merchantDomain,
    status: oneOf(NEGOTIATION_STATUSES, res.status, 'negotiation status'),
    version: res.version,
    capabilities: res.capabilities.map((c) => ({ name: c.name, version: c.version, ...(c.extends.length > 0 ? { extends: [...c.extends] } : {}) })),
    payment_handlers: objectJson(res.paymentHandlersJson === '' ? '{}' : res.paymentHandlersJson, 'negotiation payment_handlers_json'),
    messages,
    endpoint: res.endpoint,
  };
}

export function casefileVerdictToJson(res: commerceV1.VerifyCasefileResponse): CheckoutCasefileVerdictJson {
  return {
    valid: res.valid,
    checks: res.checks.map((c) => ({ ref: c.ref, ok: c.ok, ...(c.reason !== undefined ? { reason: c.reason } : {}) })),
    docket_id: res.docketId,
  };
}

export function webhookVerdictToJson(res: commerceV1.VerifyWebhookResponse): WebhookVerdictJson {
  return {
    valid: res.valid,
    scheme: oneOf(WEBHOOK_SCHEMES, res.scheme, 'webhook scheme'),
    ...(res.reason !== undefined ? { reason: res.reason } : {}),
    ...(res.keyId !== undefined ? { key_id: res.keyId } : {}),
    ...(res.merchantDomain !== undefined ? { merchant_domain: res.merchantDomain } : {}),
  };
}

/** `{name: value}` → proto headers; names lower-cased as HTTP/2 and RFC 9421 components read them. */
export function headersFromJson(headers: Record<string, string>): commerceV1.WebhookHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name: name.toLowerCase(), value }));
}

/** An optional free-form object (UCP part, docket) as the JSON text commerce parses and checks; absent stays absent. */
export const jsonText = (value: unknown): string | undefined => (value === undefined ? undefined : JSON.stringify(value));

export const docketToJson = (res: commerceV1.ExportCasefileResponse) => ({ docket: objectJson(res.docketJson, 'docket_json') });
