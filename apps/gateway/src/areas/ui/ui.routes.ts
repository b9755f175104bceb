import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { problem } from '../../plugins/app/problem';
import { problemResponses, SECURITY } from '../../schemas/common';
import { CasefileVerdict } from '../registry/attestations.schemas';
import { verdictToJson } from '../registry/registry.mapper';
import { CASEFILE_PAGE_CSP, CASEFILE_PAGE_HTML } from './casefile-page';

// /ui/casefile (the verifier page) and /ui/casefile/verify (the archive as the raw body). Both
// public and rate limited by IP like every anonymous request; verification also has its own
// per-IP budget (verify-limit.ts) and the registry reads the archive as a capped stream.

const ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

// The raw archive travels under a symbol key: the gateway's NUL scan of bodies (input-hygiene.ts)
// walks own enumerable keys, which for a Buffer is one per byte — millions for an archive.
const ARCHIVE = Symbol('archive');
type ArchiveBody = { [ARCHIVE]: Buffer } | undefined;

const uiRoutes: FastifyPluginAsyncTypebox<{ maxBytes: number; verifyLimiter: (request: FastifyRequest) => Promise<void> }> = async (fastify, opts) => {
  const { registry } = fastify;

  // Raw archive bodies in this plugin only (≤ maxBytes, read as one buffer: it travels unary).
  fastify.addContentTypeParser(ARCHIVE_TYPES, { parseAs: 'buffer', bodyLimit: opts.maxBytes }, (_request, body, done) => done(null, { [ARCHIVE]: body }));

  fastify.get(
    '/ui/casefile',
    {
      config: { auth: 'public' },
      schema: { hide: true },
    },
    async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', CASEFILE_PAGE_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .send(CASEFILE_PAGE_HTML),
  );

  fastify.post(
    '/ui/casefile/verify',
    {
      config: { auth: 'public' },
      bodyLimit: opts.maxBytes,
      // Before the body is read: the per-IP budget of anonymous verification (verify-limit.ts).
      onRequest: opts.verifyLimiter,
      schema: {
        tags: ['Attestations, receipts and casefiles'],
        operationId: 'verifyCasefileArchive',
        summary: 'Verify a casefile archive (raw .tar.gz body)',
        description:
          'The archive as the body (`Content-Type: application/gzip` or `application/octet-stream`, at most 25 MiB: 413 ' +
          '`payload_too_large`), checked against this exchange’s key. Same verdict as POST /v1/casefiles/verify; an ' +
          'unreadable archive is 400 `casefile_unreadable`, one past a reading limit (inflating beyond 128 MiB or more than ' +
          '20 times its compressed size past 16 MiB, more than 10 000 members) 413 `payload_too_large`. Public; the page ' +
          'GET /ui/casefile uses it. Shares a per-IP budget with anonymous POST /v1/casefiles/verify (429 `rate_limited` ' +
          'with Retry-After).',
        security: SECURITY.public,
        consumes: ARCHIVE_TYPES,
        body: Type.Unsafe({ description: 'The .tar.gz archive (binary)' }),
        response: { 200: CasefileVerdict, ...problemResponses(400, 413, 415, 429, 503, 504) },
      },
    },
    async (request) => {
      const body = (request.body as ArchiveBody)?.[ARCHIVE];
      if (!Buffer.isBuffer(body) || body.length === 0) throw problem(400, 'casefile_unreadable', 'the body is empty: send the .tar.gz archive');
      const res = await registry.verifyCasefile({ input: { $case: 'archive', value: body } }, request.auth.callOptions);
      return verdictToJson(res);
    },
  );
};

export default uiRoutes;
