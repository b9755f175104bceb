import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AGENT_OR_OPERATOR, SECURITY } from '../../lib/route-kit';
import { problem } from '../../plugins/app/problem';
import { problemResponses } from '../../schemas/common';
import { TAGS } from './commerce-kit';
import { headersFromJson, webhookVerdictToJson } from './commerce.mapper';
import { OrderWebhookAccepted, WebhookVerdict, WebhookVerifyBody } from './webhooks.schemas';
import { deliveredUrl, rawHeaders, refusalStatus } from './webhook-delivery';

// Merchant webhooks (DESIGN §4 Commerce): a signature check for any delivery an agent holds, and
// the receiver of merchants' order webhooks (the platform profile's `webhook_url`). Full paths.

export interface WebhookOptions {
  /** PUBLIC_BASE_URL: how merchants reach this gateway (the URL they signed). */
  publicBaseUrl: string | undefined;
}

/** A merchant's order entity is JSON; the receiver reads at most this much of it. */
const ORDER_BODY_LIMIT = 1024 * 1024;

// The raw bytes travel under a symbol key: the gateway's NUL scan walks own enumerable keys,
// which for a Buffer is one per byte, and the bytes are the merchant's to sign, not ours to parse.
const RAW = Symbol('raw-body');
type RawBody = { [RAW]: Buffer } | undefined;

const webhookRoutes: FastifyPluginAsyncTypebox<WebhookOptions> = async (fastify, opts) => {
  const { commerce } = fastify;

  fastify.post(
    '/v1/commerce/ucp/webhooks/verify',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'verifyWebhook',
        summary: 'Verify a webhook signature',
        description:
          'Checks a delivery the caller received: the UCP scheme (RFC 9421 `Signature-Input`/`Signature`, ES256, `Content-Digest` over ' +
          'the raw body, the key by `keyid` from the merchant profile named in `UCP-Agent`) or Standard Webhooks (`webhook-id`, ' +
          '`webhook-timestamp` within ±300 s, `v1,` HMAC-SHA256 with `secret` / `v1a,` ed25519). A bad signature is a result ' +
          '(`valid: false`, `reason`), not an error.',
        security: SECURITY.operator_or_agent,
        body: WebhookVerifyBody,
        response: { 200: WebhookVerdict, ...problemResponses(400, 401, 403, 413, 415, 422, 424, 429, 503, 504) },
      },
    },
    async (request) => {
      const b = request.body;
      const res = await commerce.verifyWebhook(
        { headers: headersFromJson(b.headers), body: Buffer.from(b.body_base64, 'base64'), secret: b.secret, method: b.method, url: b.url },
        request.auth.callOptions,
      );
      return webhookVerdictToJson(res);
    },
  );

  // Its own context: the raw-body parser below must not reach any other route.
  await fastify.register(async (receiver) => {
    receiver.removeAllContentTypeParsers();
    receiver.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ORDER_BODY_LIMIT }, (_request, body, done) => done(null, { [RAW]: body }));

    receiver.post(
      '/v1/commerce/ucp/webhooks/orders',
      {
        config: { auth: 'public' },
        bodyLimit: ORDER_BODY_LIMIT,
        schema: {
          tags: TAGS,
          operationId: 'receiveOrderWebhook',
          summary: 'Receive a merchant’s order webhook',
          description:
            'The platform profile’s order `webhook_url` (GET /.well-known/ucp): merchants POST the full UCP order entity here on ' +
            'every change, signed with RFC 9421 by a key of their profile. No exchange credentials: the signature is the ' +
            'authentication. The raw body (≤ 1 MiB), every header, the method and the URL as delivered go to commerce, which ' +
            'verifies them and keeps the order as evidence of its checkout session. A `Webhook-Id` seen before is accepted again ' +
            '(`duplicate: true`). Refused, with `reason`: 401 `webhook_unauthenticated` when the signer is not established ' +
            '(`signature_missing`, `signature_invalid`, `key_not_found`, `timestamp_out_of_window`, …), else 400 `webhook_rejected` ' +
            '(`digest_mismatch`, `algorithm_unsupported`, `header_repeated`, `webhook_id_missing`, `order_schema_invalid`, …).',
          security: SECURITY.public,
          consumes: ['application/json'],
          body: Type.Unsafe({ description: 'The UCP order entity, exactly as signed (raw bytes)' }),
          response: { 200: OrderWebhookAccepted, ...problemResponses(400, 401, 413, 429, 503, 504) },
        },
      },
      async (request: FastifyRequest) => {
        const body = (request.body as RawBody)?.[RAW] ?? Buffer.alloc(0);
        const res = await commerce.receiveOrderWebhook(
          { headers: rawHeaders(request.raw.rawHeaders), body, method: request.method, url: deliveredUrl(request, opts.publicBaseUrl) },
          request.auth.callOptions,
        );
        if (!res.accepted) {
          const reason = res.reason ?? 'refused';
          const message = `order webhook refused: ${reason}`;
          if (refusalStatus(reason) === 401) throw problem(401, 'webhook_unauthenticated', message, { extras: { reason } });
          throw problem(400, 'webhook_rejected', message, { extras: { reason } });
        }
        return { accepted: true as const, ...(res.commerceSessionId !== undefined ? { commerce_session_id: res.commerceSessionId } : {}), duplicate: res.duplicate };
      },
    );
  });
};

export default webhookRoutes;
