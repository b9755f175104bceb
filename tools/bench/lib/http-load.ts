import { pathSegment } from '@exchange/sdk';
import autocannon from 'autocannon';
import type { KeyObject } from 'node:crypto';
import { randomPair, type Phase } from './closed-loop';
import type { HttpScenario, LoadResult } from './scenario';
import { keyFromSeed, registration, signedHeaders } from './signing';

// An HTTP scenario with autocannon, inside the load generator process. Every request that must
// differ (a fresh registration, a fresh signature nonce, a random transfer pair) is built in
// setupRequest, so its cost is the load generator's, measured, and never the exchange's.

type SetupRequest = NonNullable<autocannon.Request['setupRequest']>;

function setupFor(s: HttpScenario): SetupRequest | undefined {
  const g = s.generator;
  switch (g.type) {
    case 'static':
      return undefined;
    case 'register': {
      let next = 0;
      const headers = { authorization: `Bearer ${g.operatorToken}`, 'content-type': 'application/json' };
      return (req) => ({ ...req, method: 'POST', path: '/v1/agents', headers, body: registration(`${g.namespace}:agent:r${next++}`).body });
    }
    case 'signed-get': {
      const key: KeyObject = keyFromSeed(g.agent.seed);
      return (req) => ({ ...req, method: 'GET', path: g.path, headers: signedHeaders(g.agent.agentId, key, 'GET', g.path) });
    }
    case 'transfer': {
      let seq = 0;
      const run = Math.random().toString(36).slice(2, 8);
      return (req) => {
        const [from, to] = randomPair(g.wallets.length);
        return {
          ...req,
          method: 'POST',
          path: `/v1/wallets/${pathSegment(g.wallets[from])}/transfer`,
          headers: { authorization: `Bearer ${g.operatorToken}`, 'x-agent-id': g.wallets[from], 'content-type': 'application/json' },
          body: JSON.stringify({ to_agent_id: g.wallets[to], amount: g.amount, currency: 'CREDIT', idempotency_key: `bench-${run}-${seq++}` }),
        };
      };
    }
  }
}

export async function httpLoad(s: HttpScenario, phase: (p: Phase) => void): Promise<LoadResult> {
  const setupRequest = setupFor(s);
  const opts = (duration: number): autocannon.Options => ({
    url: s.url,
    connections: s.connections,
    duration,
    headers: s.headers,
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
  });
  // Warm-up so JIT, pools and caches settle before measuring.
  if (s.warmupSeconds > 0) await autocannon(opts(s.warmupSeconds));
  phase('measure-start');
  const r = await autocannon(opts(s.seconds));
  phase('measure-end');
  const failed = r.non2xx + r.errors; // errors include timeouts
  return {
    name: s.name,
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    errors: failed,
    sampleErrors: failed > 0 ? [`non-2xx ${r.non2xx} ${JSON.stringify(r.statusCodeStats ?? {})}, errors ${r.errors}, timeouts ${r.timeouts}`] : [],
  };
}
