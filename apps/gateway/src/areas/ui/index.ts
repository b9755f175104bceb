import { defineArea } from '../area';
import routes from './ui.routes';

export default defineArea({
  name: 'ui',
  routes,
  options: (ctx) => ({ maxBytes: ctx.config.ARTIFACT_MAX_BYTES, verifyLimiter: ctx.verifyLimiter }),
});
