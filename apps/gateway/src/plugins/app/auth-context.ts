import type { CallOptions } from '@exchange/platform';
import type { identityV1 } from '@exchange/proto';
import type { FastifyRequest } from 'fastify';
import { publicAccess, type AuthMode } from './auth-allow-list';

// Who is calling: the AuthContext the auth plugin (auth.ts) sets on every request, the route
// options it reads, and how it reads a request before any check (its mode, the bearer token, the
// anonymous context).

export interface AuthContext {
  kind: 'anonymous' | 'operator' | 'agent';
  /** Operator name (from OPERATOR_TOKENS; "default" for OPERATOR_TOKEN). */
  operator: string | null;
  /** The agent the request acts for: X-Agent-Id (operator) or the signing agent. */
  actingAgentId: string | null;
  /** Rate-limit identity before the tier lookup: agent, else hashed token, else IP. */
  rateKey: string;
  /** Metadata for every gRPC call made for this request. */
  callOptions: CallOptions;
  /** The signing agent as identity returned it while verifying (kind agent only). */
  agent: identityV1.Agent | null;
  /** Kind agent: the signature has not verified yet (the request is not authenticated). */
  signaturePending: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Agent-signed requests must name the signing agent in this path parameter. */
    agentSelfParam?: string;
    /** false: a frozen acting agent may still call this mutation (operator actions such as unfreeze). */
    frozenCheck?: boolean;
    /**
     * Multipart bodies are streamed to the backing service, so an agent signature over them is
     * checked by the handler (`verifyStreamedBodySignature`) once the body has been read.
     */
    streamedBodySignature?: boolean;
  }
  interface FastifyInstance {
    /** Verifies a deferred agent signature against the sha256 of the streamed body (403 when wrong). */
    verifyStreamedBodySignature(request: FastifyRequest, bodySha256Hex: string): Promise<void>;
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}

export function routeMode(request: FastifyRequest): AuthMode {
  if (request.is404) return 'public';
  // Open only when listed; a declaration alone never opens a route (checked at start as well).
  const listed = publicAccess(request.method, request.routeOptions.url);
  if (listed) return listed;
  const declared = request.routeOptions.config.auth;
  return declared === 'operator_or_agent' ? declared : 'operator';
}

export function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined || header === '') return undefined; // no credentials at all
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null; // null: another scheme or a malformed header
}

export const anonymous = (request: FastifyRequest): AuthContext => ({
  kind: 'anonymous', operator: null, actingAgentId: null, rateKey: `ip:${request.ip}`,
  callOptions: { requestId: request.id, traceId: request.id }, agent: null, signaturePending: false,
});
