import type { FastifyPluginAsync } from 'fastify';
import checkoutActionsRoutes from './checkout-actions';
import checkoutEvidenceRoutes from './checkout-evidence';
import checkoutRoutes from './checkout';
import discoveryRoutes from './discovery';
import webhookRoutes, { type WebhookOptions } from './webhooks';

// The commerce protocol area (DESIGN §4 Commerce) over CommerceService: UCP discovery and
// negotiation, checkout sessions, their evidence and casefiles, webhooks. Full paths (the
// platform profile lives at /.well-known/ucp), one file per resource, in /openapi.json order.

const commerceRoutes: FastifyPluginAsync<WebhookOptions> = async (fastify, opts) => {
  await fastify.register(discoveryRoutes);
  await fastify.register(checkoutRoutes);
  await fastify.register(checkoutActionsRoutes);
  await fastify.register(checkoutEvidenceRoutes);
  await fastify.register(webhookRoutes, opts);
};

export default commerceRoutes;
