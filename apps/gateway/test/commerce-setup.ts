import { commerceV1 } from '@exchange/proto';
import { operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// The commerce and mandates specs' shared setup: one harness per spec file (fake-commerce.ts
// behind the gateway), a buyer and another agent registered, and the request helpers.

export const C = commerceV1;
export let h: Harness;
export let buyer: TestAgent;
export let other: TestAgent;

type Method = 'GET' | 'POST' | 'PUT';

export function signed(agent: TestAgent, method: Method, url: string, body?: unknown, extra: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return h.app.inject({
    method,
    url,
    headers: { ...agent.signedHeaders(method, url, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
    ...(body === undefined ? {} : { payload: text }),
  });
}

export const asOperator = (method: Method, url: string, payload?: unknown, extra: Record<string, string> = {}) =>
  h.app.inject({ method, url, headers: operator(extra), ...(payload === undefined ? {} : { payload: payload as object }) });

export const anonymous = (method: Method, url: string, payload?: unknown) => h.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

/** The Actor the gateway sent with the last call of `method`. */
export const actorOf = (method: string) => h.commerce.lastCall<{ actor: commerceV1.Actor }>(method).request.actor;

/** Registers the harness hooks of the calling spec file (one harness per file). */
export function useCommerceHarness(): void {
  beforeAll(async () => {
    h = await startHarness();
    buyer = new TestAgent(uniqueAgentId('buyer'));
    other = new TestAgent(uniqueAgentId('other'));
    await registerAgent(h.app, buyer);
    await registerAgent(h.app, other);
  });
  afterAll(async () => {
    await h.close();
  });
}
