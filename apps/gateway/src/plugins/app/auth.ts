import type { CallOptions } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  agentRequestSigningMessage,
  agentRequestSigningMessageForHash,
  checkAgentTimestamp,
  readAgentSignatureHeaders,
  type AgentSignatureHeaders,
} from '../../auth/agent-signature';
import { OperatorTokenVerifier, type OperatorToken } from '../../auth/operator-tokens';
import { AGENT_ID_REGEX } from '../../schemas/common';
import { problem } from './problem';

// Who is calling (DESIGN §3 "Authentication" and "Acting agent"). Each route declares its mode
// in `config.auth`; a route without one is operator-only (fail closed), except the swagger-ui
// routes under /api-reference which are public.
//   onRequest:     bearer token (401 missing / 403 wrong) or the agent signature headers' shape;
//   preValidation: agent signature verified by identity over the raw body, self-only paths,
//                  and the frozen check on mutations.

/**
 * `optional`: without credentials the request is anonymous (public registry reads); with them it
 * is authenticated exactly as `operator_or_agent`.
 */
export type AuthMode = 'public' | 'operator' | 'operator_or_agent' | 'optional';

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
}

export const SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{86}==$/;
const WWW_AUTHENTICATE = { 'www-authenticate': 'Bearer realm="agent-exchange"' };
const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

export interface AuthOptions {
  operatorTokens: OperatorToken[];
  /** Injected clock for tests of the timestamp window. */
  now?: () => number;
}

function routeMode(request: FastifyRequest): AuthMode {
  if (request.is404) return 'public';
  const declared = request.routeOptions.config.auth;
  if (declared) return declared;
  return request.routeOptions.url?.startsWith('/api-reference') ? 'public' : 'operator';
}

function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined || header === '') return undefined; // no credentials at all
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null; // null: another scheme or a malformed header
}

const pendingSignature = Symbol('pendingSignature');
type WithPending = FastifyRequest & { [pendingSignature]?: AgentSignatureHeaders };

export default fp<AuthOptions>(
  async (fastify, opts) => {
    const verifier = new OperatorTokenVerifier(opts.operatorTokens);
    const now = opts.now ?? Date.now;
    const { identity, agentCache } = fastify;

    fastify.decorateRequest('auth', null as unknown as AuthContext);

    fastify.decorate('verifyStreamedBodySignature', async (request: FastifyRequest, bodySha256Hex: string) => {
      const signed = (request as WithPending)[pendingSignature];
      if (!signed) return; // not agent-signed
      const message = agentRequestSigningMessageForHash({
        method: request.method,
        pathWithQuery: request.url,
        timestamp: signed.timestamp,
        bodySha256Hex,
      });
      const verdict = await identity.verifyAgentSignature(
        { agentId: signed.agentId, message: Buffer.from(message), signature: signed.signature },
        request.auth.callOptions,
      );
      if (!verdict.valid) {
        throw problem(403, 'agent_signature_invalid', 'X-Agent-Signature does not verify with an active key of X-Agent-Id');
      }
      if (verdict.agent) {
        request.auth.agent = verdict.agent;
        agentCache.put(verdict.agent);
      }
    });

    fastify.addHook('onRequest', async (request) => {
      const mode = routeMode(request);
      const requestId = request.id;
      if (mode === 'public') {
        request.auth = {
          kind: 'anonymous', operator: null, actingAgentId: null, rateKey: `ip:${request.ip}`,
          callOptions: { requestId, traceId: requestId }, agent: null,
        };
        return;
      }

      const headers = request.headers;
      if (mode === 'optional' && (headers.authorization === undefined || headers.authorization === '') && readAgentSignatureHeaders(headers).kind === 'none') {
        request.auth = {
          kind: 'anonymous', operator: null, actingAgentId: null, rateKey: `ip:${request.ip}`,
          callOptions: { requestId, traceId: requestId }, agent: null,
        };
        return;
      }
      const token = bearerToken(headers.authorization);
      if (token !== undefined) {
        if (token === null) {
          throw problem(401, 'unauthenticated', 'use `Authorization: Bearer <operator token>`', { headers: WWW_AUTHENTICATE });
        }
        const operator = verifier.match(token);
        if (!operator) throw problem(403, 'forbidden', 'the bearer token is not a valid operator token');
        const acting = headers['x-agent-id'];
        let actingAgentId: string | null = null;
        if (typeof acting === 'string' && acting !== '') {
          if (!AGENT_ID_REGEX.test(acting)) {
            throw problem(400, 'validation_failed', 'X-Agent-Id is not an agent id', {
              errors: [{ pointer: '/headers/x-agent-id', message: 'must match <namespace>:agent:<name>' }],
            });
          }
          actingAgentId = acting;
        }
        request.auth = {
          kind: 'operator',
          operator: operator.name,
          actingAgentId,
          rateKey: actingAgentId ? `agent:${actingAgentId}` : `tok:${operator.tokenId}`,
          callOptions: { requestId, traceId: requestId, actor: `operator:${operator.name}`, agentId: actingAgentId ?? undefined },
          agent: null,
        };
        return;
      }

      const signed = readAgentSignatureHeaders(headers);
      if (signed.kind === 'none') {
        throw problem(401, 'unauthenticated', 'authentication required: `Authorization: Bearer <operator token>` or an agent-signed request', {
          headers: WWW_AUTHENTICATE,
        });
      }
      if (signed.kind === 'incomplete') {
        throw problem(401, 'unauthenticated', `agent-signed request is missing ${signed.missing.join(', ')}`, { headers: WWW_AUTHENTICATE });
      }
      if (mode !== 'operator_or_agent' && mode !== 'optional') {
        throw problem(403, 'operator_token_required', 'this route requires the operator token; agent-signed requests are not accepted');
      }
      if (!AGENT_ID_REGEX.test(signed.agentId)) {
        throw problem(403, 'agent_signature_invalid', 'X-Agent-Id is not an agent id');
      }
      const timestampCheck = checkAgentTimestamp(signed.timestamp, now());
      if (timestampCheck !== 'ok') {
        throw problem(
          403,
          'agent_timestamp_invalid',
          timestampCheck === 'malformed'
            ? 'X-Agent-Timestamp must be unix seconds'
            : 'X-Agent-Timestamp is more than 300 seconds away from the exchange clock',
        );
      }
      if (!SIGNATURE_PATTERN.test(signed.signature)) {
        throw problem(403, 'agent_signature_invalid', 'X-Agent-Signature must be the base64 of a 64-byte ed25519 signature');
      }
      request.auth = {
        kind: 'agent',
        operator: null,
        actingAgentId: signed.agentId,
        rateKey: `agent:${signed.agentId}`,
        callOptions: { requestId, traceId: requestId, actor: `agent:${signed.agentId}`, agentId: signed.agentId },
        agent: null,
      };
      // Verified in preValidation, once the raw body has been read.
      (request as WithPending)[pendingSignature] = signed;
    });

    fastify.addHook('preValidation', async (request) => {
      const auth = request.auth;
      if (!auth || auth.kind === 'anonymous') return;

      const signed = (request as WithPending)[pendingSignature];
      const deferred = signed !== undefined && request.routeOptions.config.streamedBodySignature === true && /^multipart\//i.test(request.headers['content-type'] ?? '');
      if (signed && !deferred) {
        const message = agentRequestSigningMessage({
          method: request.method,
          pathWithQuery: request.url,
          timestamp: signed.timestamp,
          rawBody: request.rawBody,
        });
        const verdict = await identity.verifyAgentSignature(
          { agentId: signed.agentId, message: Buffer.from(message), signature: signed.signature },
          auth.callOptions,
        );
        if (!verdict.valid) {
          throw problem(403, 'agent_signature_invalid', 'X-Agent-Signature does not verify with an active key of X-Agent-Id');
        }
        if (verdict.agent) {
          auth.agent = verdict.agent;
          agentCache.put(verdict.agent);
        }
        const selfParam = request.routeOptions.config.agentSelfParam;
        if (selfParam && (request.params as Record<string, string | undefined>)[selfParam] !== signed.agentId) {
          throw problem(403, 'forbidden', 'an agent-signed request may only act as the signing agent');
        }
      }

      if (auth.actingAgentId && MUTATIONS.has(request.method) && request.routeOptions.config.frozenCheck !== false) {
        const agent = auth.agent ?? (await agentCache.get(auth.actingAgentId, auth.callOptions));
        if (agent && agent.status === identityV1.AgentStatus.AGENT_STATUS_FROZEN) {
          throw problem(403, 'agent_frozen', `agent ${auth.actingAgentId} is frozen`);
        }
      }
    });
  },
  { name: 'auth', dependencies: ['grpc-clients', 'agent-cache', 'problem', 'json-body'] },
);
