import { pathSegment } from '@exchange/sdk';
import type { Agent } from './scenario';
import { registration } from './signing';

// The benchmark's agents, registered through the gateway with the operator token (a fresh key
// pair and registration proof each) and, when asked, funded by the sandbox faucet.

async function post(url: string, token: string, path: string, body: string, expected: number): Promise<void> {
  const res = await fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  if (res.status !== expected) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

/** Registers `count` agents `<namespace>:agent:<name><i>`, 8 at a time; credits each `fund` CREDIT when given. */
export async function createAgents(url: string, token: string, opts: { namespace: string; name: string; count: number; fund?: string }): Promise<Agent[]> {
  const agents: Agent[] = new Array<Agent>(opts.count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < opts.count; i = next++) {
        const agentId = `${opts.namespace}:agent:${opts.name}${i}`;
        const { seed, body } = registration(agentId);
        await post(url, token, '/v1/agents', body, 201);
        if (opts.fund) {
          const faucet = JSON.stringify({ amount: opts.fund, currency: 'CREDIT', category: 'bench', idempotency_key: `fund-${agentId}` });
          await post(url, token, `/v1/wallets/${pathSegment(agentId)}/faucet`, faucet, 201);
        }
        agents[i] = { agentId, seed };
      }
    }),
  );
  return agents;
}
