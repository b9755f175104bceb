import { uuidv7 } from '@exchange/platform';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

// Request ids: a sane incoming `x-request-id` is kept (so a caller can correlate), anything else
// is replaced by `req_<uuidv7>`. The id is echoed on every response and sent to services.

const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Fastify `genReqId`. */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : `req_${uuidv7()}`;
}

export default fp(
  async (fastify) => {
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'request-context' },
);
