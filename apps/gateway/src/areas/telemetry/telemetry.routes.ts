import type { FastifyPluginAsync } from 'fastify';
import feedsRoutes from './feeds.routes';
import reportsRoutes from './reports.routes';

// The Telemetry area (spec "Telemetry" and `GET /v1/metrics/outcomes`): feeds first, then the
// report, rollups and outcome metrics (the order of /openapi.json). Full paths.

const telemetryRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(feedsRoutes);
  await fastify.register(reportsRoutes);
};

export default telemetryRoutes;
