import type { FastifyPluginAsync } from 'fastify';
import runsRoutes from './runs.routes';
import tasksRoutes from './tasks.routes';

// The Workflows area (spec "Workflows"): runs first, then tasks and their event subscriptions
// (the order of /openapi.json). Full paths.

const workflowsRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(runsRoutes);
  await fastify.register(tasksRoutes);
};

export default workflowsRoutes;
