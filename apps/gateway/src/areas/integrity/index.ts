import { defineArea } from '../area';
import * as integritySchemas from './integrity.schemas';
import routes from './integrity.routes';

export default defineArea({
  name: 'integrity',
  prefix: '/v1/market-integrity',
  routes,
  schemas: [integritySchemas],
});
