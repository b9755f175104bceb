import { defineArea } from '../area';
import routes from './ledger.routes';

export default defineArea({
  name: 'ledger',
  prefix: '/v1/ledger',
  routes,
});
