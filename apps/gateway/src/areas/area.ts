import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';

// What an area is: one Fastify plugin (its routes), where it is mounted, the options it takes from
// the gateway, and the schema modules whose exported resources /openapi.json names as components.

/** What the gateway hands every area at start. */
export interface AreaContext {
  config: GatewayConfig;
  exchangePublicKey: string | null;
  healthCheckDeadlineMs?: number;
  /** The rate-limit table rendered into /skill.md. */
  rateLimitTable: string;
  /** One per-IP budget for anonymous casefile verification, shared by /v1 and /ui. */
  verifyLimiter: (request: FastifyRequest) => Promise<void>;
}

export interface Area<O = unknown> {
  name: string;
  /** Mount point; areas whose paths cross (market) sit at /v1 and spell their full paths. */
  prefix?: string;
  // The TypeBox type provider's plugin type differs from plain FastifyPluginAsync in its generics only.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  routes: (fastify: any, opts: O) => Promise<void>;
  options?: (ctx: AreaContext) => O;
  /** Modules exporting the area's TypeBox schemas (components of /openapi.json). */
  schemas?: Array<Record<string, unknown>>;
}

/** Typed at the definition, stored untyped in the table. */
export function defineArea<O>(area: Area<O>): Area {
  return area as Area;
}
