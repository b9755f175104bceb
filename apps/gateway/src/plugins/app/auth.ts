import { sha256Hex } from '@exchange/crypto';
import { identityV1 } from '@exchange/proto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  agentRequestSigningMessageForHash,
  checkAgentTimestamp,
  isValidAgentNonce,
  readAgentSignatureHeaders,
  type AgentSignatureHeaders,
} from '../../auth/agent-signature';
import { verifiesWithActiveKey } from '../../auth/local-verify';
import { OperatorTokenVerifier, type OperatorToken } from '../../auth/operator-tokens';
import { RedisNonceStore } from '../../auth/redis-nonce-store';
import { MEMORY_NONCE_CAPACITY, MemoryNonceStore, ReplayGuard } from '../../auth/replay-guard';
import { AGENT_ID_REGEX } from '../../schemas/common';
import { routeAuthMismatch, type AuthMode, type SecurityRequirement } from './auth-allow-list';
import { anonymous, bearerToken, routeMode, type AuthContext } from './auth-context';
import { HttpProblem, problem } from './problem';

// Who is calling (DESIGN §3 "Authentication" and "Acting agent"). Each route declares its mode
// in `config.auth`; a route without one is operator-only (fail closed). Only the routes of
// PUBLIC_ROUTES (and swagger-ui under /api-reference) can be reached without credentials: a route
// declaring `public`/`optional` that is not listed, or whose OpenAPI `security` does not say the
// same, stops the gateway at start (onRoute below).
//   onRequest:     an IP past its failed-authentication budget → 429 before any work; bearer
//                  token (401 missing / 403 wrong) or the agent signature headers' shape;
//   preValidation: agent signature verified by identity over the raw body, then its nonce
//                  claimed (401 agent_nonce_reused), self-only paths, the frozen check on mutations.
// Every authentication failure counts against the client IP (never the claimed agent).
// AuthContext (request.auth) and the route options read here: auth-context.ts.

export const SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{86}==$/;
const WWW_AUTHENTICATE = { 'www-authenticate': 'Bearer realm="agent-exchange"' };
const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const EMPTY_BODY = new Uint8Array(0);

export interface AuthOptions {
  operatorTokens: OperatorToken[];
  /** Injected clock for tests of the timestamp window. */
  now?: () => number;
}

const pendingSignature = Symbol('pendingSignature');
type WithPending = FastifyRequest & { [pendingSignature]?: AgentSignatureHeaders };

export default fp<AuthOptions>(
  async (fastify, opts) => {
    const verifier = new OperatorTokenVerifier(opts.operatorTokens);
    const now = opts.now ?? Date.now;
    const { identity, agentCache, recentAgent, authFailures, gatewayRedis } = fastify;
    const replayGuard = new ReplayGuard({
      store: gatewayRedis ? new RedisNonceStore(gatewayRedis.client, `${gatewayRedis.prefix}nonce:`) : new MemoryNonceStore(now),
      fallback: gatewayRedis ? new MemoryNonceStore(now) : undefined,
      now,
      // The message as a string: pino serializes an `err` object with a (here empty) stack.
      onStoreDown: (err) => fastify.log.warn({ err: (err as Error).message }, 'nonce store (redis) failed: mutations refused, reads checked in memory'),
      onStoreUp: () => fastify.log.info('nonce store (redis) available again'),
      onStoreFull: () => fastify.log.warn({ capacity: MEMORY_NONCE_CAPACITY }, 'nonce store (memory) full: signed requests refused until nonces expire'),
    });

    /** Counts the failure against the client IP and returns the problem to throw. */
    const failed = async (request: FastifyRequest, refusal: HttpProblem): Promise<HttpProblem> => {
      await authFailures.record(request);
      return refusal;
    };

    /**
     * Verifies the signature over the body hash, then claims the nonce — only then, so that a
     * forger cannot use up the nonces of the agent it names.
     */
    const authenticateAgent = async (request: FastifyRequest, signed: AgentSignatureHeaders, bodySha256Hex: string): Promise<void> => {
      const auth = request.auth;
      const message = agentRequestSigningMessageForHash({
        agentId: signed.agentId,
        method: request.method,
        pathWithQuery: request.url,
        timestamp: signed.timestamp,
        nonce: signed.nonce,
        bodySha256Hex,
      });
      // An agent cached within AGENT_KEY_CACHE_TTL_MS verifies here; identity is asked otherwise and
      // for every signature that does not verify locally (it is authoritative, and refreshes the entry).
      const cached = recentAgent(signed.agentId);
      // The entry must still be the one checked: an identity event handled during the check (a
      // revoked key, a freeze) replaces it, and then identity decides.
      if (cached && (await verifiesWithActiveKey(cached, message, signed.signature)) && recentAgent(signed.agentId) === cached) {
        auth.agent = cached;
      } else {
        const verdict = await identity.verifyAgentSignature(
          { agentId: signed.agentId, message: Buffer.from(message), signature: signed.signature },
          auth.callOptions,
        );
        if (verdict.agent) agentCache.put(verdict.agent);
        if (!verdict.valid) {
          throw await failed(request, problem(403, 'agent_signature_invalid', 'X-Agent-Signature does not verify with an active key of X-Agent-Id'));
        }
        if (verdict.agent) auth.agent = verdict.agent;
      }
      const nonce = await replayGuard.claim({ agentId: signed.agentId, nonce: signed.nonce, timestamp: signed.timestamp, mutation: MUTATIONS.has(request.method) });
      if (nonce === 'reused') {
        throw await failed(
          request,
          problem(401, 'agent_nonce_reused', 'X-Agent-Nonce was already used within the timestamp window: sign the request again with a new nonce', { headers: WWW_AUTHENTICATE }),
        );
      }
      if (nonce === 'unavailable') {
        throw problem(503, 'service_unavailable', 'replay protection is unavailable; retry shortly with a new nonce', { headers: { 'retry-after': '1' }, dependencyDown: true });
      }
      auth.signaturePending = false;
    };

    fastify.decorateRequest('auth', null as unknown as AuthContext);

    // Default deny, enforced where routes are declared: a contradiction stops the gateway at start.
    fastify.addHook('onRoute', (route) => {
      const schema = route.schema as { security?: SecurityRequirement[]; hide?: boolean } | undefined;
      const config = route.config as { auth?: AuthMode } | undefined;
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        const why = routeAuthMismatch(method, route.url, config?.auth, schema?.security, schema?.hide === true);
        if (why) throw new Error(`route ${method} ${route.url} ${why}`);
      }
    });

    fastify.decorate('verifyStreamedBodySignature', async (request: FastifyRequest, bodySha256Hex: string) => {
      const signed = (request as WithPending)[pendingSignature];
      if (!signed) return; // not agent-signed
      await authenticateAgent(request, signed, bodySha256Hex);
      // Counted against the IP while unverified; now against the agent, like any signed request.
      await fastify.rateLimitVerifiedAgent(request);
    });

    fastify.addHook('onRequest', async (request) => {
      const mode = routeMode(request);
      const requestId = request.id;
      const headers = request.headers;
      if (mode === 'public') {
        request.auth = anonymous(request);
        return;
      }
      if (mode === 'optional' && (headers.authorization === undefined || headers.authorization === '') && readAgentSignatureHeaders(headers).kind === 'none') {
        request.auth = anonymous(request);
        return;
      }

      // An IP past its failed-authentication budget is refused before any token compare or
      // identity call.
      const retryAfter = await authFailures.retryAfter(request);
      if (retryAfter !== null) {
        const windowS = Math.round(authFailures.windowMs / 1000);
        throw problem(429, 'rate_limited', `more than ${authFailures.max} failed authentications from this IP in ${windowS} s; retry in ${retryAfter} s`, {
          headers: { 'retry-after': String(retryAfter) },
        });
      }

      const token = bearerToken(headers.authorization);
      if (token !== undefined) {
        if (token === null) {
          throw await failed(request, problem(401, 'unauthenticated', 'use `Authorization: Bearer <operator token>`', { headers: WWW_AUTHENTICATE }));
        }
        const operator = verifier.match(token);
        if (!operator) throw await failed(request, problem(403, 'forbidden', 'the bearer token is not a valid operator token'));
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
          signaturePending: false,
        };
        return;
      }

      const signed = readAgentSignatureHeaders(headers);
      if (signed.kind === 'none') {
        throw await failed(
          request,
          problem(401, 'unauthenticated', 'authentication required: `Authorization: Bearer <operator token>` or an agent-signed request', { headers: WWW_AUTHENTICATE }),
        );
      }
      if (signed.kind === 'incomplete') {
        throw await failed(request, problem(401, 'unauthenticated', `agent-signed request is missing ${signed.missing.join(', ')}`, { headers: WWW_AUTHENTICATE }));
      }
      if (mode !== 'operator_or_agent' && mode !== 'optional') {
        throw problem(403, 'operator_token_required', 'this route requires the operator token; agent-signed requests are not accepted');
      }
      if (!AGENT_ID_REGEX.test(signed.agentId)) {
        throw await failed(request, problem(403, 'agent_signature_invalid', 'X-Agent-Id is not an agent id'));
      }
      const timestampCheck = checkAgentTimestamp(signed.timestamp, now());
      if (timestampCheck !== 'ok') {
        throw await failed(
          request,
          problem(
            403,
            'agent_timestamp_invalid',
            timestampCheck === 'malformed'
              ? 'X-Agent-Timestamp must be unix seconds'
              : 'X-Agent-Timestamp is more than 300 seconds away from the exchange clock',
          ),
        );
      }
      if (!isValidAgentNonce(signed.nonce)) {
        throw await failed(request, problem(401, 'agent_nonce_invalid', 'X-Agent-Nonce must be 16–64 characters of A–Z a–z 0–9 - _', { headers: WWW_AUTHENTICATE }));
      }
      if (!SIGNATURE_PATTERN.test(signed.signature)) {
        throw await failed(request, problem(403, 'agent_signature_invalid', 'X-Agent-Signature must be the base64 of a 64-byte ed25519 signature'));
      }
      request.auth = {
        kind: 'agent',
        operator: null,
        actingAgentId: signed.agentId,
        rateKey: `agent:${signed.agentId}`,
        callOptions: { requestId, traceId: requestId, actor: `agent:${signed.agentId}`, agentId: signed.agentId },
        agent: null,
        signaturePending: true,
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
        await authenticateAgent(request, signed, sha256Hex(request.rawBody ?? EMPTY_BODY));
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
  { name: 'auth', dependencies: ['grpc-clients', 'agent-cache', 'problem', 'json-body', 'rate-limit'] },
);
