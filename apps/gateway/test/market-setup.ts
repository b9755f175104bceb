import { marketV1 } from '@exchange/proto';
import { operator, signedRequest, useHarnessWithAgents, type Harness, type TestAgent } from './harness';

// The market specs' shared setup: one harness per spec file (fake identity, wallet-ledger and
// market behind the gateway), a buyer and a seller registered, and the request helpers.

export const M = marketV1;
export let h: Harness;
export let buyer: TestAgent;
export let seller: TestAgent;

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const DEADLINE = '2030-01-01T00:00:00.000Z';
export const SHA = `sha256:${'ab'.repeat(32)}`;
let keySeq = 0;
export const freshKey = () => `mkt-key-${Date.now()}-${keySeq++}`;

export const signed = (agent: TestAgent, method: 'GET' | 'POST', url: string, body?: unknown, extra: Record<string, string> = {}) =>
  signedRequest(h.app, agent, method, url, body, extra);
export const asOperator = (method: 'GET' | 'POST', url: string, payload?: unknown, extra: Record<string, string> = {}) =>
  h.app.inject({ method, url, headers: operator(extra), ...(payload === undefined ? {} : { payload: payload as object }) });

export const contractBody = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  title: 'Summarise tickets',
  budget: { amount: '100', currency: 'CREDIT' },
  deadline: DEADLINE,
  acceptance_criteria: 'one paragraph each',
  ...over,
});

export async function newContract(over: Record<string, unknown> = {}) {
  const res = await signed(buyer, 'POST', '/v1/contracts', contractBody(over));
  expect(res.statusCode).toBe(201);
  return res.json();
}
export async function newOffer(contractId: string) {
  const res = await signed(seller, 'POST', `/v1/contracts/${contractId}/offers`, { price: { amount: '90', currency: 'CREDIT' }, eta: DEADLINE });
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** Registers the harness hooks of the calling spec file (one harness per file). */
export function useMarketHarness(): void {
  useHarnessWithAgents(['buyer', 'seller'], (started, agents) => {
    h = started;
    [buyer, seller] = agents as [TestAgent, TestAgent];
  });
}
