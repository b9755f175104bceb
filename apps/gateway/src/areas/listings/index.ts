import { defineArea } from '../area';
import * as marketSchemas from '../../lib/market/market.schemas';
import * as listingsSchemas from './listings.schemas';
import routes from './listings.routes';

export default defineArea({
  name: 'listings',
  prefix: '/v1',
  routes,
  schemas: [marketSchemas, listingsSchemas],
});
