import { commerceV1 } from '@exchange/proto';
import { operator, signedRequest, useHarnessWithAgents, type Harness, type TestAgent } from './harness';

// The commerce and mandates specs' shared setup: one harness per spec file (fake-commerce.ts
// behind the gateway), a buyer and another agent registered, and the request helpers.

export const C = commerceV1;
export let h: Harness;
export let buyer: TestAgent;
export let other: TestAgent;

type Method = 'GET' | 'POST' | 'PUT';

export const signed = (agent: TestAgent, method: Method, url: string, body?: unknown, extra: Record<string, string> = {}) =>
  signedRequest(h.app, agent, method, url, body, extra);

export const asOperator = (method: Method, url: string, payload?: unknown, extra: Record<string, string> = {}) =>
  h.app.inject({ method, url, headers: operator(extra), ...(payload === undefined ? {} : { payload: payload as object }) });

export const anonymous = (method: Method, url: string, payload?: unknown) => h.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

/** The Actor the gateway sent with the last call of `method`. */
export const actorOf = (method: string) => h.commerce.lastCall<{ actor: commerceV1.Actor }>(method).request.actor;

/** Registers the harness hooks of the calling spec file (one harness per file). */
export function useCommerceHarness(): void {
  useHarnessWithAgents(['buyer', 'other'], (started, agents) => {
    h = started;
    [buyer, other] = agents as [TestAgent, TestAgent];
  });
}
