import { defineArea } from '../area';
import * as registrySchemas from './registry.schemas';
import * as aliasesSchemas from './aliases.schemas';
import * as artifactsSchemas from './artifacts.schemas';
import * as attestationsSchemas from './attestations.schemas';
import routes from './registry.routes';

export default defineArea({
  name: 'registry',
  prefix: '/v1',
  routes,
  options: (ctx) => ({ maxBytes: ctx.config.ARTIFACT_MAX_BYTES, verifyLimiter: ctx.verifyLimiter, exchangePublicKey: ctx.exchangePublicKey }),
  schemas: [registrySchemas, artifactsSchemas, attestationsSchemas, aliasesSchemas],
});
