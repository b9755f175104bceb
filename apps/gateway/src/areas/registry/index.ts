import { defineArea } from '../area';
import * as registrySchemas from './registry.schemas';
import routes from './registry.routes';

export default defineArea({
  name: 'registry',
  prefix: '/v1',
  routes,
  options: (ctx) => ({ maxBytes: ctx.config.ARTIFACT_MAX_BYTES, verifyLimiter: ctx.verifyLimiter, exchangePublicKey: ctx.exchangePublicKey }),
  schemas: [registrySchemas],
});
