// Shared plumbing of the market APIs (contracts, offers, results, disputes, listings, verifiers,
// integrity, insights, catalog, governance): idempotent POSTs and GETs, and the body helpers.
import { sendIdempotent } from './idempotency';
import type { Money } from './market-types';
import { pathSegment, type Transport } from './transport';

/** Drops undefined members so that an absent optional is absent from the JSON body. */
export function compact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}
export const iso = (value: Date | string): string => (value instanceof Date ? value.toISOString() : value);
export const money = (m: Money): Money => ({ amount: m.amount, currency: m.currency });
export const contractPath = (contractId: string, suffix = ''): string => `/v1/contracts/${pathSegment(contractId)}${suffix}`;

/** Shared plumbing of the market APIs. */
export class MarketBase {
  constructor(protected readonly transport: Transport) {}

  protected post<T>(path: string, body: Record<string, unknown>, key: string | undefined): Promise<T> {
    return sendIdempotent<T>(this.transport, { method: 'POST', path, body: compact(body) }, key);
  }

  protected read<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<T> {
    return this.transport.request<T>({ method: 'GET', path, query });
  }
}
