import { defineArea } from '../area';
import * as runsSchemas from './runs.schemas';
import * as subscriptionsSchemas from './subscriptions.schemas';
import routes from './workflows.routes';

export default defineArea({
  name: 'workflows',
  routes,
  schemas: [runsSchemas, subscriptionsSchemas],
});
