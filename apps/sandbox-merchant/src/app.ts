import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { renderError } from './checkout/checkout.view';
import { jsonDepth } from './json-depth';
import { PROFILE_CACHE_CONTROL } from './profile/profile';

/** Deeper than any UCP message (checkout nests about 6 levels). */
const MAX_JSON_DEPTH = 32;

// The HTTP server: body parsing and limits, UCP-shaped errors, the profile route (index.ts adds
// the checkout handlers). Hostile input gets a clear 4xx, never a crash.

export interface AppDeps {
  profile: () => Record<string, unknown>;
  bodyLimit: number;
  logError: (err: unknown) => void;
}

export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: deps.bodyLimit });

  // JSON only; an empty body (cancel carries none) is no body rather than an error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const raw = String(text);
    if (raw.trim() === '') return done(null, undefined);
    if (jsonDepth(raw) > MAX_JSON_DEPTH) {
      return done(Object.assign(new Error(`The body is nested deeper than ${MAX_JSON_DEPTH} levels.`), { statusCode: 400 }), undefined);
    }
    try {
      done(null, JSON.parse(raw));
    } catch {
      done(Object.assign(new Error('The body is not valid JSON.'), { statusCode: 400 }), undefined);
    }
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) deps.logError(error);
    const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : status === 500 ? 'internal_error' : 'invalid_request';
    const content = status === 500 ? 'Internal error.' : error.message;
    return reply.code(status).type('application/json').send(renderError([{ type: 'error', code, content, severity: 'unrecoverable' }]));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).type('application/json').send(renderError([{ type: 'error', code: 'not_found', content: `No route ${request.method} ${request.url.split('?')[0]}.`, severity: 'unrecoverable' }])),
  );

  app.get('/.well-known/ucp', (_request, reply) => reply.header('cache-control', PROFILE_CACHE_CONTROL).type('application/json').send(deps.profile()));
  app.get('/health', () => ({ status: 'ok' }));
  return app;
}
