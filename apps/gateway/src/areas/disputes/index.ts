import { defineArea } from '../area';
import * as marketSchemas from '../../lib/market/market.schemas';
import * as disputesSchemas from './disputes.schemas';
import routes from './disputes.routes';

export default defineArea({
  name: 'disputes',
  prefix: '/v1',
  routes,
  schemas: [marketSchemas, disputesSchemas],
});
