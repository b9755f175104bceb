import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses, SECURITY } from '../../schemas/common';
import { HealthResponse } from './health.schemas';

// GET /health: grpc.health.v1 Check on every backing service, in parallel, with a short deadline.
// 200 when all are SERVING, else 503 with the same body (a load balancer reads the status code).

export interface HealthOptions {
  environment: string;
  version: string;
  exchangePublicKey: string | null;
  checkDeadlineMs?: number;
}

const healthRoutes: FastifyPluginAsyncTypebox<HealthOptions> = async (fastify, opts) => {
  const deadlineMs = opts.checkDeadlineMs ?? 1000;
  fastify.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Health'],
        operationId: 'getHealth',
        summary: 'Health of the gateway and its backing services',
        security: SECURITY.public,
        response: { 200: HealthResponse, 503: HealthResponse, ...problemResponses(429) },
      },
    },
    async (request, reply) => {
      const services = fastify.backingServices;
      const statuses = await Promise.all(services.map((s) => s.check({ deadlineMs, requestId: request.id })));
      const body = {
        status: statuses.every((s) => s === 'SERVING') ? ('ok' as const) : ('degraded' as const),
        environment: opts.environment,
        version: opts.version,
        exchange_public_key: opts.exchangePublicKey,
        services: Object.fromEntries(services.map((s, i) => [s.name, { status: statuses[i] ?? 'UNKNOWN', address: s.address }])),
        time: new Date().toISOString(),
      };
      return reply.code(body.status === 'ok' ? 200 : 503).send(body);
    },
  );
};

export default healthRoutes;
