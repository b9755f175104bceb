import { defineArea } from '../area';
import * as catalogSchemas from './catalog.schemas';
import routes from './catalog.routes';

export default defineArea({
  name: 'catalog',
  prefix: '/v1',
  routes,
  schemas: [catalogSchemas],
});
