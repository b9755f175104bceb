import { defineArea } from '../area';
import * as marketSchemas from '../../lib/market/market.schemas';
import * as contractsSchemas from './contracts.schemas';
import routes from './contracts.routes';

export default defineArea({
  name: 'contracts',
  prefix: '/v1',
  routes,
  schemas: [marketSchemas, contractsSchemas],
});
