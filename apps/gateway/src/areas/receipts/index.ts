import { defineArea } from '../area';
import * as receiptsSchemas from './receipts.schemas';
import routes from './receipts.routes';

export default defineArea({
  name: 'receipts',
  prefix: '/v1/receipts',
  routes,
  schemas: [receiptsSchemas],
});
