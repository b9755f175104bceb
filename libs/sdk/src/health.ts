// GET /health: public, 200 when every service is SERVING, 503 with the same body when degraded.
import type { Transport } from './transport';

export type ServiceServingStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN';

export interface Health {
  status: 'ok' | 'degraded';
  environment: string;
  version: string;
  exchange_public_key: string;
  services: Record<string, { status: ServiceServingStatus; address: string }>;
  time: string;
}

export function getHealth(transport: Transport): Promise<Health> {
  return transport.request<Health>({ method: 'GET', path: '/health', acceptStatuses: [503] });
}
