import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import aliasMintRoutes from './alias-mint';
import aliasReadRoutes from './aliases';
import artifactsRoutes from './artifacts';
import casefilesRoutes from './casefiles';
import objectsRoutes from './objects';

// The registry areas (objects, artifacts, attestations/receipts/casefiles, aliases), full paths
// under /v1; one file per resource, registered in this order (it is the order of /openapi.json).

export interface RegistryOptions {
  maxBytes: number;
  verifyLimiter: (request: FastifyRequest) => Promise<void>;
  exchangePublicKey: string | null;
}

const registryRoutes: FastifyPluginAsync<RegistryOptions> = async (fastify, opts) => {
  await fastify.register(objectsRoutes);
  await fastify.register(artifactsRoutes, { maxBytes: opts.maxBytes });
  await fastify.register(casefilesRoutes, { verifyLimiter: opts.verifyLimiter });
  await fastify.register(aliasReadRoutes);
  await fastify.register(aliasMintRoutes, { exchangePublicKey: opts.exchangePublicKey });
};

export default registryRoutes;
