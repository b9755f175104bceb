import { defineArea } from '../area';
import * as agentsSchemas from './agents.schemas';
import routes from './agents.routes';

export default defineArea({
  name: 'agents',
  prefix: '/v1/agents',
  routes,
  schemas: [agentsSchemas],
});
