import { defineArea } from '../area';
import * as checkoutSchemas from './checkout.schemas';
import * as evidenceSchemas from './evidence.schemas';
import * as profileSchemas from './profile.schemas';
import * as webhooksSchemas from './webhooks.schemas';
import routes from './commerce.routes';

export default defineArea({
  name: 'commerce',
  routes,
  options: (ctx) => ({ publicBaseUrl: ctx.config.PUBLIC_BASE_URL }),
  schemas: [profileSchemas, checkoutSchemas, evidenceSchemas, webhooksSchemas],
});
