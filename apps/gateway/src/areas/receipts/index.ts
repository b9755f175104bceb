import { defineArea } from '../area';
import routes from './receipts.routes';

export default defineArea({
  name: 'receipts',
  prefix: '/v1/receipts',
  routes,
});
