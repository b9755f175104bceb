// GET /health: public, 200 when every service is SERVING, 503 with the same body when degraded.
import type { Transport } from './transport';
import type { api, Narrow } from './wire';

/**
 * `exchange_public_key` is null on the wire when the gateway has no exchange key configured; it
 * stays typed `string` here until the callers that assign it to a string handle null (see README).
 */
export type Health = Narrow<api.GetHealthResponse, { exchange_public_key: string }>;
export type ServiceServingStatus = api.ServiceHealth['status'];

export function getHealth(transport: Transport): Promise<Health> {
  return transport.request<Health>({ method: 'GET', path: '/health', acceptStatuses: [503] });
}
