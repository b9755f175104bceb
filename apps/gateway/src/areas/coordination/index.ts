import { defineArea } from '../area';
import * as coordinationSchemas from './coordination.schemas';
import routes from './coordination.routes';

export default defineArea({
  name: 'coordination',
  prefix: '/v1',
  routes,
  schemas: [coordinationSchemas],
});
