import { defineArea } from '../area';
import * as insightsSchemas from './insights.schemas';
import routes from './insights.routes';

export default defineArea({
  name: 'insights',
  prefix: '/v1',
  routes,
  schemas: [insightsSchemas],
});
