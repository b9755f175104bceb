import { service as healthService } from 'grpc-health-check';
import { createServiceClient, type CallOptions } from './grpc-client';

export type HealthStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'SERVICE_UNKNOWN';

export interface HealthClient {
  /** grpc.health.v1 Check for `service` ('' = whole server). Rejects like any call (e.g. UNAVAILABLE). */
  check(service?: string, opts?: CallOptions): Promise<HealthStatus>;
  close(): void;
}

const STATUS_NAMES: HealthStatus[] = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

/** A grpc.health.v1 client over one channel, e.g. for the gateway's /health. */
export function createHealthClient(address: string, opts?: { defaultDeadlineMs?: number }): HealthClient {
  const client = createServiceClient(healthService, address, opts);
  return {
    async check(service = '', callOpts?: CallOptions) {
      const response = (await client.Check({ service }, callOpts)) as { status?: string | number };
      const value = response.status;
      if (typeof value === 'number') return STATUS_NAMES[value] ?? 'UNKNOWN';
      return (STATUS_NAMES as string[]).includes(value ?? '') ? (value as HealthStatus) : 'UNKNOWN';
    },
    close: () => client.close(),
  };
}
