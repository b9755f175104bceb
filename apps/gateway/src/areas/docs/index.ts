import { defineArea } from '../area';
import routes from './docs.routes';

export default defineArea({
  name: 'docs',
  routes,
  options: (ctx) => ({ exchangePublicKey: ctx.exchangePublicKey, environment: ctx.config.EXCHANGE_ENV, rateLimitTable: ctx.rateLimitTable }),
});
