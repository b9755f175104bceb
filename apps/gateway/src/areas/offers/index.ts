import { defineArea } from '../area';
import * as marketSchemas from '../../lib/market/market.schemas';
import * as offersSchemas from './offers.schemas';
import routes from './offers.routes';

export default defineArea({
  name: 'offers',
  prefix: '/v1',
  routes,
  schemas: [marketSchemas, offersSchemas],
});
