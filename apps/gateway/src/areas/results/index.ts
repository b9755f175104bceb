import { defineArea } from '../area';
import * as marketSchemas from '../../lib/market/market.schemas';
import * as resultsSchemas from './results.schemas';
import routes from './results.routes';

export default defineArea({
  name: 'results',
  prefix: '/v1',
  routes,
  schemas: [marketSchemas, resultsSchemas],
});
