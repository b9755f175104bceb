import fp from 'fastify-plugin';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../input-hygiene';
import { problem } from './problem';

// Bodies are JSON only (anything else → 415). The raw bytes are kept on the request because an
// agent signs the sha256 of exactly those bytes (X-Agent-Signature, DESIGN §3). Nesting deeper
// than MAX_JSON_DEPTH is refused before the text is parsed (400 payload_too_deep).

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
      if (jsonDepthExceeds(body as Buffer)) {
        done(problem(400, 'payload_too_deep', `JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted`), undefined);
        return;
      }
      parseJson(request, body as unknown as string, done);
    });
  },
  { name: 'json-body', dependencies: ['problem'] },
);
