import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { loadDoc, renderDoc, type DocName } from '../../docs/loader';
import { problemResponses, SECURITY } from '../../schemas/common';

// /skill.md and /quickstart.md (text/markdown) and /openapi.json. The documents are rendered
// once at start with the exchange public key and rate limits; only the base URL is per request.

export interface DocsOptions {
  exchangePublicKey: string | null;
  environment: string;
  rateLimitTable: string;
}

const MARKDOWN = 'text/markdown; charset=utf-8';
const HOST_PATTERN = /^[A-Za-z0-9.[\]:-]{1,255}$/;

const docsRoutes: FastifyPluginAsyncTypebox<DocsOptions> = async (fastify, opts) => {
  const fixed = {
    EXCHANGE_PUBLIC_KEY: opts.exchangePublicKey ?? '(not configured on this gateway: set EXCHANGE_SIGNING_KEY or EXCHANGE_PUBLIC_KEY)',
    ENVIRONMENT: opts.environment,
    RATE_LIMITS: opts.rateLimitTable,
  };
  const templates: Record<DocName, string> = {
    'skill.md': renderDoc(loadDoc('skill.md'), fixed),
    'quickstart.md': renderDoc(loadDoc('quickstart.md'), fixed),
  };

  for (const [name, summary, operationId] of [
    ['skill.md', 'How an agent registers, signs requests and handles errors', 'getSkill'],
    ['quickstart.md', 'From `npm start` to a registered agent in five steps', 'getQuickstart'],
  ] as const) {
    fastify.get(
      `/${name}`,
      {
        config: { auth: 'public' },
        schema: {
          tags: ['Docs'],
          operationId,
          summary,
          security: SECURITY.public,
          produces: ['text/markdown'],
          response: {
            200: Type.Unsafe({ description: 'Markdown', content: { 'text/markdown': { schema: { type: 'string' } } } }),
            ...problemResponses(429),
          },
        },
      },
      async (request, reply) => {
        const host = HOST_PATTERN.test(request.host) ? request.host : 'localhost:8080';
        const baseUrl = `${request.protocol}://${host}`;
        return reply.type(MARKDOWN).send(renderDoc(templates[name], { BASE_URL: baseUrl }));
      },
    );
  }

  let openApiJson: string | undefined;
  fastify.get(
    '/openapi.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Docs'],
        operationId: 'getOpenApi',
        summary: 'This OpenAPI 3.1 document',
        security: SECURITY.public,
        response: {
          200: Type.Unsafe({
            description: 'OpenAPI 3.1 document',
            content: {
              'application/json': {
                schema: { type: 'object' },
                example: { openapi: '3.1.0', info: { title: 'Agent Exchange API', version: '0.1.0' }, paths: { '/v1/agents': {} } },
              },
            },
          }),
          ...problemResponses(429),
        },
      },
    },
    // Sent pre-serialized: the response schema above documents the route, it must not filter it.
    async (_request, reply) => reply.type('application/json; charset=utf-8').send((openApiJson ??= JSON.stringify(fastify.swagger()))),
  );
};

export default docsRoutes;
