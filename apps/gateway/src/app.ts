import type { EventBus } from '@exchange/events';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AREAS } from './areas/index';
import type { AreaContext } from './areas/area';
import type { OperatorToken } from './auth/operator-tokens';
import type { GatewayConfig } from './config';
import agentCache from './plugins/app/agent-cache';
import auth from './plugins/app/auth';
import errorMapping, { isGrpcError } from './plugins/app/error-mapping';
import grpcClients from './plugins/app/grpc-clients';
import integrityGuard from './plugins/app/integrity-guard';
import jsonBody from './plugins/app/json-body';
import problemPlugin, { problem } from './plugins/app/problem';
import { markDeliberateRefusal } from './deliberate-refusal';
import { lingerIfBodyUnread } from './lingering-close';
import requestContext from './plugins/app/request-context';
import rateLimit from './plugins/external/rate-limit';
import swagger from './plugins/external/swagger';
import swaggerUi from './plugins/external/swagger-ui';
import * as commonSchemas from './schemas/common';
import { Problem } from './schemas/common';
import { anonymousVerifyLimiter } from './lib/verify-limit';
import { rateLimitsFrom, rateLimitTable } from './settings';

// The application as one plugin. Order matters: external plugins (rate limit, OpenAPI) first so
// they see every route, then the app's own decorators and hooks, then the routes.

export interface AppOptions {
  config: GatewayConfig;
  operatorTokens: OperatorToken[];
  exchangePublicKey: string | null;
  /** Clock for the agent timestamp window (tests). */
  now?: () => number;
  healthCheckDeadlineMs?: number;
  /** Identity's agent events refresh the agent cache at once (see plugins/app/agent-cache.ts). */
  events?: EventBus;
}

export default async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  const { config } = opts;
  const limits = rateLimitsFrom(config);

  // External.
  await fastify.register(rateLimit, { limits, redisUrl: config.REDIS_URL, redisPrefix: config.RATE_LIMIT_REDIS_PREFIX });
  await fastify.register(swagger, {
    version: config.VERSION,
    environment: config.EXCHANGE_ENV,
    schemaModules: [commonSchemas, ...AREAS.flatMap((area) => area.schemas ?? [])],
  });
  await fastify.register(swaggerUi);

  // App.
  await fastify.register(requestContext);
  await fastify.register(problemPlugin);
  await fastify.register(errorMapping);
  await fastify.register(jsonBody);
  await fastify.register(grpcClients, { addresses: config });
  await fastify.register(agentCache, { ttlMs: config.AGENT_CACHE_TTL_MS, keyTtlMs: config.AGENT_KEY_CACHE_TTL_MS, events: opts.events });
  await fastify.register(auth, { operatorTokens: opts.operatorTokens, now: opts.now });
  await fastify.register(integrityGuard, { ttlMs: config.GATEWAY_INTEGRITY_CACHE_MS });
  fastify.addSchema(Problem);

  // While closing, requests still arriving on kept-alive connections get a problem+json 503
  // (Fastify's own return503OnClosing answer is plain JSON).
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      reply.header('connection', 'close');
      throw problem(503, 'service_unavailable', 'the gateway is shutting down; retry on another connection', { deliberate: true });
    }
  });

  fastify.setErrorHandler((error, request, reply) => {
    const problem = fastify.problemFromError(error);
    // A refused body may still be arriving: the answer must reach the client before the close.
    lingerIfBodyUnread(request.raw);
    if (problem.status >= 500) {
      // A deliberate refusal (deliberate-refusal.ts) is no failure: its code says it all, no stack.
      // A dependency down (problem-init.ts) or a backing service failing: one warn line, as a stack
      // would say nothing new. Anything else is logged in full here, never sent: the client sees
      // only code + generic detail.
      if (problem.deliberate) {
        markDeliberateRefusal(request);
        request.log.info({ code: problem.code, detail: problem.detail }, 'request refused');
      } else if (problem.dependencyDown) request.log.warn({ code: problem.code, detail: problem.detail }, 'dependency unavailable');
      else if (isGrpcError(error) && problem.status !== 500) request.log.warn({ grpc_code: error.code, code: problem.code }, 'backing service failed');
      else request.log.error({ err: error }, 'request failed');
    }
    return reply.sendProblem(problem);
  });

  // 404 for unknown paths, 405 (with Allow) for a known path with another method.
  const routes: Array<{ method: string; pattern: RegExp }> = [];
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = new RegExp(
      '^' + route.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+').replace(/\*/g, '.*') + '$',
    );
    for (const method of methods) routes.push({ method, pattern });
  });
  fastify.setNotFoundHandler({ preHandler: fastify.rateLimit() }, (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] ?? request.url;
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      return reply.sendProblem({
        status: 405,
        code: 'method_not_allowed',
        detail: `${request.method} is not allowed on ${path}`,
        headers: { allow: allowed.join(', ') },
      });
    }
    return reply.sendProblem({ status: 404, code: 'not_found', detail: `no route ${request.method} ${path}` });
  });

  // Routes: every area from the one table (src/areas/index.ts), in its order.
  const ctx: AreaContext = {
    config,
    exchangePublicKey: opts.exchangePublicKey,
    healthCheckDeadlineMs: opts.healthCheckDeadlineMs,
    rateLimitTable: rateLimitTable(limits),
    verifyLimiter: anonymousVerifyLimiter(fastify, { max: config.RATE_LIMIT_CASEFILE_VERIFY, windowMs: config.RATE_LIMIT_WINDOW_MS }),
  };
  for (const area of AREAS) {
    await fastify.register(area.routes, { ...(area.options?.(ctx) as object | undefined), ...(area.prefix !== undefined ? { prefix: area.prefix } : {}) });
  }
}
