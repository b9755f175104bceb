import type { HttpResult } from './http';
import { canonicalJson, type RawAgent } from './raw-agent';
import { newKey, WalletHttp } from './wallet-http';

// Raw-HTTP helpers for the commerce e2e suites: mandates signed and approvals signed exactly as
// /skill.md tells an agent (deep canonical JSON, ed25519 over its UTF-8 bytes), checkouts at the
// built-in sandbox merchant (USD is funded with WalletHttp.fund's currency).

export const MERCHANT = 'sandbox-merchant.local';
export const BUYER_DETAILS = { email: 'buyer@example.com', first_name: 'Ada', last_name: 'Agent' };

export interface MandateInput {
  merchants?: string[];
  categories?: string[];
  skus?: string[];
  perTransaction: string;
  total: string;
  currency?: string;
  expiresAt?: string;
  autonomy?: Record<string, unknown>;
}

export class CommerceHttp extends WalletHttp {
  /** A mandate body signed by `signer` for `agent` (skill.md "Mandates"). */
  mandateBody(signer: RawAgent, agent: RawAgent, m: MandateInput): Record<string, unknown> {
    const expiresAt = m.expiresAt ?? new Date(Date.now() + 86_400_000).toISOString();
    const scope = { merchants: m.merchants ?? [MERCHANT], categories: m.categories ?? [], skus: m.skus ?? [] };
    const limits = { per_transaction: m.perTransaction, total: m.total, currency: m.currency ?? 'USD' };
    const signed = { signer_agent_id: signer.agentId, agent_id: agent.agentId, scope, limits, expires_at: new Date(expiresAt).toISOString() };
    return {
      signer_agent_id: signer.agentId,
      agent_id: agent.agentId,
      scope,
      limits,
      expires_at: expiresAt,
      signature: signer.signBase64(canonicalJson(signed)),
      ...(m.autonomy ? { autonomy: m.autonomy } : {}),
    };
  }

  async createMandate(signer: RawAgent, agent: RawAgent, m: MandateInput): Promise<any> {
    return this.expectStatus(this.as(signer, 'POST', '/v1/mandates', this.mandateBody(signer, agent, m)), 201);
  }

  /** The approval body `approver` signs for a session (skill.md "Approvals"). */
  approvalBody(approver: RawAgent, session: { commerce_session_id: string; total: string; currency: string }, decision: 'approve' | 'deny') {
    const payload = { commerce_session_id: session.commerce_session_id, decision, approver_id: approver.agentId, total: session.total, currency: session.currency };
    return { decision, approver_id: approver.agentId, signature: approver.signBase64(canonicalJson(payload)) };
  }

  checkoutBody(mandateId: string, lines: Array<[string, number]>, extra: Record<string, unknown> = {}) {
    return {
      mandate_id: mandateId,
      merchant_domain: MERCHANT,
      line_items: lines.map(([id, quantity]) => ({ item: { id }, quantity })),
      buyer: BUYER_DETAILS,
      ...extra,
    };
  }

  createCheckout(buyer: RawAgent, body: Record<string, unknown>, key = newKey('checkout')): Promise<HttpResult> {
    return this.as(buyer, 'POST', '/v1/commerce/ucp/checkout/create', body, { 'idempotency-key': key });
  }
}

export const sessionPath = (id: string, suffix = '') => `/v1/commerce/ucp/checkout/${encodeURIComponent(id)}${suffix}`;
