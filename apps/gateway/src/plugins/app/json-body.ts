import fp from 'fastify-plugin';

// Bodies are JSON only (anything else → 415). The raw bytes are kept on the request because an
// agent signs the sha256 of exactly those bytes (X-Agent-Signature, DESIGN §3).

declare module 'fastify' {
  interface FastifyRequest {
    rawBody: Buffer | undefined;
  }
}

export default fp(
  async (fastify) => {
    const parseJson = fastify.getDefaultJsonParser('error', 'error');
    fastify.decorateRequest('rawBody', undefined);
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      request.rawBody = body as Buffer;
      parseJson(request, body as unknown as string, done);
    });
  },
  { name: 'json-body' },
);
