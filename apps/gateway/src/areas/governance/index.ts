import { defineArea } from '../area';
import * as governanceSchemas from './governance.schemas';
import routes from './governance.routes';

export default defineArea({
  name: 'governance',
  prefix: '/v1',
  routes,
  schemas: [governanceSchemas],
});
