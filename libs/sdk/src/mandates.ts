// Spending mandates (DESIGN §4 Commerce; AP2-style): a signer lets an agent buy within a scope
// and limits until a date; autonomy settings decide when the signer must approve a checkout.
import { signCanonical } from '@exchange/crypto';
import { sendIdempotent } from './idempotency';
import { compact, iso } from './market-base';
import type { Money } from './market-types';
import { paginate, type Page, type PageParams } from './pagination';
import { pathSegment, type Transport } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

export type Mandate = api.Mandate;
export type Autonomy = api.Autonomy;
export type MandateAutonomy = api.MandateAutonomy;
export type MandateStatus = Mandate['status'];
export type AutonomyMode = Autonomy['mode'];

export interface AutonomyInput {
  mode: AutonomyMode;
  /** Required for mode `step_up`. */
  stepUpThreshold?: Money;
  approvalForNewMerchants: boolean;
  /** Decimal string per UTC day. */
  dailyLimit?: string;
}

export interface CreateMandateInput extends Idempotent {
  /** The signer (the acting agent). */
  signerAgentId: string;
  /** The buyer agent it is granted to. */
  agentId: string;
  /** Empty lists: any. */
  scope: { merchants: string[]; categories: string[]; skus: string[] };
  limits: { perTransaction: string; total: string; currency: string };
  expiresAt: Date | string;
  /** Base64 ed25519 by the signer over the canonical mandate (/skill.md "Mandates"). */
  signature: string;
  autonomy?: AutonomyInput;
}

export interface ListMandatesParams extends PageParams {
  signerAgentId?: string;
  status?: MandateStatus;
}

type MandateTerms = Omit<CreateMandateInput, 'signature' | 'autonomy' | 'idempotencyKey'>;

/** The signed part of a mandate without its expiry, in wire names: what is sent is what is signed. */
const termsBody = (input: MandateTerms) => ({
  signer_agent_id: input.signerAgentId,
  agent_id: input.agentId,
  scope: { merchants: input.scope.merchants, categories: input.scope.categories, skus: input.scope.skus },
  limits: { per_transaction: input.limits.perTransaction, total: input.limits.total, currency: input.limits.currency },
});

/**
 * The mandate signature: base64 ed25519 by the signer over canonical JSON of exactly
 * {signer_agent_id, agent_id, scope, limits, expires_at}, amounts and lists as sent and
 * `expires_at` in `Date.toISOString()` form (/skill.md "Mandates").
 */
export function signMandate(input: MandateTerms, privateKey: Uint8Array): string {
  return signCanonical({ ...termsBody(input), expires_at: new Date(input.expiresAt).toISOString() }, privateKey);
}

const autonomyBody = (a: AutonomyInput): api.PutMandateAutonomyRequest => ({
  mode: a.mode,
  ...(a.stepUpThreshold === undefined ? {} : { step_up_threshold: { amount: a.stepUpThreshold.amount, currency: a.stepUpThreshold.currency } }),
  approval_for_new_merchants: a.approvalForNewMerchants,
  ...(a.dailyLimit === undefined ? {} : { daily_limit: a.dailyLimit }),
});

const mandatePath = (id: string, suffix = '') => `/v1/mandates/${pathSegment(id)}${suffix}`;

export class MandatesApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/mandates → 201 Mandate. */
  create(input: CreateMandateInput): Promise<Mandate> {
    const body = {
      ...termsBody(input),
      expires_at: iso(input.expiresAt),
      signature: input.signature,
      autonomy: input.autonomy === undefined ? undefined : autonomyBody(input.autonomy),
    } satisfies Omit<api.CreateMandateRequest, 'idempotency_key'>;
    return sendIdempotent(this.transport, { method: 'POST', path: '/v1/mandates', body: compact(body) }, input.idempotencyKey);
  }

  get(mandateId: string): Promise<Mandate> {
    return this.transport.request({ method: 'GET', path: mandatePath(mandateId) });
  }

  /** GET /v1/mandates: those the caller signed or was granted (the operator: all), newest first. */
  list(params: ListMandatesParams = {}): Promise<Page<Mandate>> {
    return this.transport.request({
      method: 'GET',
      path: '/v1/mandates',
      query: { limit: params.limit, cursor: params.cursor, signer_agent_id: params.signerAgentId, status: params.status },
    });
  }

  iterate(params: Omit<ListMandatesParams, 'cursor'> = {}): AsyncGenerator<Mandate, void, undefined> {
    return paginate((cursor) => this.list({ ...params, cursor }));
  }

  getAutonomy(mandateId: string): Promise<MandateAutonomy> {
    return this.transport.request({ method: 'GET', path: mandatePath(mandateId, '/autonomy') });
  }

  /** PUT the whole autonomy object (the signer only). */
  putAutonomy(mandateId: string, autonomy: AutonomyInput): Promise<MandateAutonomy> {
    return this.transport.request({ method: 'PUT', path: mandatePath(mandateId, '/autonomy'), body: autonomyBody(autonomy) });
  }

  /** Pause, resume (`active`, the signer only) or revoke (final) a mandate. */
  setStatus(mandateId: string, status: api.SetMandateStatusRequest['status']): Promise<Mandate> {
    return this.transport.request({ method: 'POST', path: mandatePath(mandateId, '/status'), body: { status } satisfies api.SetMandateStatusRequest });
  }
}
