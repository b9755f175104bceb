import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperatorToken } from './auth/operator-tokens';
import type { GatewayConfig } from './config';
import agentCache from './plugins/app/agent-cache';
import auth from './plugins/app/auth';
import errorMapping, { isGrpcError } from './plugins/app/error-mapping';
import grpcClients from './plugins/app/grpc-clients';
import integrityGuard from './plugins/app/integrity-guard';
import jsonBody from './plugins/app/json-body';
import problemPlugin, { problem } from './plugins/app/problem';
import requestContext from './plugins/app/request-context';
import rateLimit from './plugins/external/rate-limit';
import swagger from './plugins/external/swagger';
import swaggerUi from './plugins/external/swagger-ui';
import agentsRoutes from './routes/v1/agents/index';
import contractsRoutes from './routes/v1/contracts/index';
import disputesRoutes from './routes/v1/disputes/index';
import ledgerRoutes from './routes/v1/ledger/index';
import listingsRoutes from './routes/v1/listings/index';
import offersRoutes from './routes/v1/offers/index';
import receiptsRoutes from './routes/v1/receipts/index';
import resultsRoutes from './routes/v1/results/index';
import verificationRoutes from './routes/v1/verification/index';
import walletsRoutes from './routes/v1/wallets/index';
import integrityRoutes from './routes/v1/integrity/index';
import insightsRoutes from './routes/v1/insights/index';
import catalogRoutes from './routes/v1/catalog/index';
import coordinationRoutes from './routes/v1/coordination/index';
import governanceRoutes from './routes/v1/governance/index';
import aliasMintRoutes from './routes/v1/registry/alias-mint';
import aliasReadRoutes from './routes/v1/registry/aliases';
import artifactsRoutes from './routes/v1/registry/artifacts';
import casefilesRoutes from './routes/v1/registry/casefiles';
import objectsRoutes from './routes/v1/registry/objects';
import { anonymousVerifyLimiter } from './lib/verify-limit';
import uiRoutes from './routes/ui/index';
import docsRoutes from './routes/docs';
import healthRoutes from './routes/health';
import { Problem } from './schemas/common';
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
}

export default async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  const { config } = opts;
  const limits = rateLimitsFrom(config);

  // External.
  await fastify.register(rateLimit, { limits, redisUrl: config.REDIS_URL, redisPrefix: config.RATE_LIMIT_REDIS_PREFIX });
  await fastify.register(swagger, { version: config.VERSION, environment: config.EXCHANGE_ENV });
  await fastify.register(swaggerUi);

  // App.
  await fastify.register(requestContext);
  await fastify.register(problemPlugin);
  await fastify.register(errorMapping);
  await fastify.register(jsonBody);
  await fastify.register(grpcClients, { addresses: config });
  await fastify.register(agentCache, { ttlMs: config.AGENT_CACHE_TTL_MS });
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
      throw problem(503, 'service_unavailable', 'the gateway is shutting down; retry on another connection');
    }
  });

  fastify.setErrorHandler((error, request, reply) => {
    const problem = fastify.problemFromError(error);
    if (problem.status >= 500) {
      // Logged in full here, never sent: the client sees only code + generic detail.
      if (isGrpcError(error) && problem.status !== 500) request.log.warn({ grpc_code: error.code, code: problem.code }, 'backing service failed');
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

  // Routes.
  await fastify.register(healthRoutes, {
    environment: config.EXCHANGE_ENV,
    version: config.VERSION,
    exchangePublicKey: opts.exchangePublicKey,
    checkDeadlineMs: opts.healthCheckDeadlineMs,
  });
  await fastify.register(docsRoutes, {
    exchangePublicKey: opts.exchangePublicKey,
    environment: config.EXCHANGE_ENV,
    rateLimitTable: rateLimitTable(limits),
  });
  await fastify.register(agentsRoutes, { prefix: '/v1/agents' });
  await fastify.register(walletsRoutes, { prefix: '/v1/wallets/:agent_id' });
  await fastify.register(receiptsRoutes, { prefix: '/v1/receipts' });
  await fastify.register(ledgerRoutes, { prefix: '/v1/ledger' });
  // Market areas: their paths cross (/v1/contracts/{id}/offers is an Offers route), so each
  // plugin is registered at /v1 and spells its full paths.
  await fastify.register(contractsRoutes, { prefix: '/v1' });
  await fastify.register(listingsRoutes, { prefix: '/v1' });
  await fastify.register(offersRoutes, { prefix: '/v1' });
  await fastify.register(resultsRoutes, { prefix: '/v1' });
  await fastify.register(verificationRoutes, { prefix: '/v1' });
  await fastify.register(disputesRoutes, { prefix: '/v1' });
  // Market part 2 (issue 6): integrity, insights, catalog, coordination, governance.
  await fastify.register(integrityRoutes, { prefix: '/v1/market-integrity' });
  await fastify.register(insightsRoutes, { prefix: '/v1' });
  await fastify.register(catalogRoutes, { prefix: '/v1' });
  await fastify.register(coordinationRoutes, { prefix: '/v1' });
  await fastify.register(governanceRoutes, { prefix: '/v1' });
  // Registry areas (objects, artifacts, attestations/receipts/casefiles, aliases), full paths under /v1.
  await fastify.register(objectsRoutes, { prefix: '/v1' });
  await fastify.register(artifactsRoutes, { prefix: '/v1', maxBytes: config.ARTIFACT_MAX_BYTES });
  // One per-IP budget for anonymous casefile verification, shared by its two routes.
  const verifyLimiter = anonymousVerifyLimiter(fastify, { max: config.RATE_LIMIT_CASEFILE_VERIFY, windowMs: config.RATE_LIMIT_WINDOW_MS });
  await fastify.register(casefilesRoutes, { prefix: '/v1', verifyLimiter });
  await fastify.register(aliasReadRoutes, { prefix: '/v1' });
  await fastify.register(aliasMintRoutes, { prefix: '/v1', exchangePublicKey: opts.exchangePublicKey });
  await fastify.register(uiRoutes, { maxBytes: config.ARTIFACT_MAX_BYTES, verifyLimiter });
}
