import { defineArea } from '../area';
import * as postPurchaseSchemas from './post-purchase.schemas';
import routes from './post-purchase.routes';

export default defineArea({
  name: 'post-purchase',
  routes,
  schemas: [postPurchaseSchemas],
});
