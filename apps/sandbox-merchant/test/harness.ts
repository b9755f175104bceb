import { createLogger } from '@exchange/platform';
import { createUcpValidator } from '@exchange/ucp';
import { readSandboxMerchantConfig, startSandboxMerchant, type RunningSandboxMerchant } from '../src/index';
import { CHECKOUT_CAPABILITIES } from '../src/checkout/checkout';

// Starts a merchant on a free loopback port with a movable clock; every JSON answer can be
// checked against the UCP schemas with expectUcp.

export const ucp = createUcpValidator();

export interface Harness {
  merchant: RunningSandboxMerchant;
  clock: { now: number };
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; json: any }>;
}

export async function startHarness(env: Record<string, string> = {}, fetchImpl?: typeof fetch): Promise<Harness> {
  const clock = { now: Date.parse('2026-11-24T12:00:00Z') };
  const config = readSandboxMerchantConfig({ PORT: '0', HOST: '127.0.0.1', ESCALATION_THRESHOLD: '20000', PENDING_PAYMENT_MS: '200', ...env });
  const merchant = await startSandboxMerchant(config, { logger: createLogger({ name: 'sandbox-merchant-test', level: 'silent' }), clock: () => clock.now, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  const call: Harness['call'] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers } };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(`${merchant.url}${path}`, init);
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, headers: response.headers, json };
  };
  return { merchant, clock, call };
}

/** Every checkout or error answer validates against the UCP response schemas (negotiated capabilities). */
export function expectUcp(body: any): void {
  const result = body && typeof body === 'object' && 'id' in body
    ? ucp.validateCheckout('response', body, CHECKOUT_CAPABILITIES)
    : ucp.validate('error_response', body);
  expect(result).toEqual({ valid: true });
}

export function expectTotalsAddUp(body: any): void {
  const totals = body.totals as Array<{ type: string; amount: number }>;
  const total = totals.filter((t) => t.type === 'total');
  expect(total).toHaveLength(1);
  expect(totals.filter((t) => t.type !== 'total').reduce((s, t) => s + t.amount, 0)).toBe(total[0].amount);
}

export const buyer = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
export const pay = (token = 'success_token') => ({
  payment: { instruments: [{ id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', selected: true, credential: { type: 'token', token } }] },
});
export const cart = (items: Array<[string, number]>, extra: Record<string, unknown> = {}) => ({
  line_items: items.map(([id, quantity]) => ({ item: { id }, quantity })),
  ...extra,
});
