import { defineArea } from '../area';
import * as mandatesSchemas from './mandates.schemas';
import routes from './mandates.routes';

export default defineArea({
  name: 'mandates',
  prefix: '/v1',
  routes,
  schemas: [mandatesSchemas],
});
