import { signedRequest, useHarnessWithAgents, type Harness, type TestAgent } from './harness';

// The wallet specs' shared setup: one harness per spec file (fake identity and wallet-ledger behind
// the gateway), two registered agents, and the request helpers.

export let h: Harness;
export let alice: TestAgent;
export let bob: TestAgent;

export const wallet = (agent: TestAgent, suffix = '') => `/v1/wallets/${agent.agentId}${suffix}`;
let keySeq = 0;
export const freshKey = () => `gw-key-${Date.now()}-${keySeq++}`;

/** An agent-signed request carrying exactly the bytes it signed. */
export const signed = (agent: TestAgent, method: 'GET' | 'POST', url: string, body?: unknown, extra: Record<string, string> = {}) =>
  signedRequest(h.app, agent, method, url, body, extra);

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Registers the harness hooks of the calling spec file (one harness per file). */
export function useWalletsHarness(): void {
  useHarnessWithAgents(['alice', 'bob'], (started, agents) => {
    h = started;
    [alice, bob] = agents as [TestAgent, TestAgent];
  });
}
