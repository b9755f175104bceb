// GET /health: public, 200 when every service is SERVING, 503 with the same body when degraded.
import type { Transport } from './transport';
import type { api } from './wire';

/** `exchange_public_key` is null when the gateway has no exchange key configured. */
export type Health = api.GetHealthResponse;
export type ServiceServingStatus = api.ServiceHealth['status'];

export function getHealth(transport: Transport): Promise<Health> {
  return transport.request<Health>({ method: 'GET', path: '/health', acceptStatuses: [503] });
}
