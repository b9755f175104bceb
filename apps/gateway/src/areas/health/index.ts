import { defineArea } from '../area';
import * as healthSchemas from './health.schemas';
import routes from './health.routes';

export default defineArea({
  name: 'health',
  routes,
  options: (ctx) => ({ environment: ctx.config.EXCHANGE_ENV, version: ctx.config.VERSION, exchangePublicKey: ctx.exchangePublicKey, checkDeadlineMs: ctx.healthCheckDeadlineMs }),
  schemas: [healthSchemas],
});
