import { defineArea } from '../area';
import * as agentsSchemas from './agents.schemas';
import routes from './agents.routes';

export default defineArea({
  name: 'agents',
  prefix: '/v1/agents',
  routes,
  // GET /v1/agents/{id} answers from the agent cache within the key TTL (see agents.routes.ts).
  options: (ctx) => ({ readCacheMs: ctx.config.AGENT_KEY_CACHE_TTL_MS }),
  schemas: [agentsSchemas],
});
