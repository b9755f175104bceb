import fp from 'fastify-plugin';
import { IntegrityCache, type GuardSnapshot } from '../../cache/integrity-cache';
import { guardViewOf } from '../../areas/integrity/integrity.mapper';
import { problem } from './problem';

// The gateway's share of market integrity (issue 6 §6): while the market's `read_only` kill
// switch is on, every mutation under /v1 answers 503 `read_only` — except the operator's own
// POST /v1/market-integrity/* (how read-only mode is switched off again) and the two POSTs that
// only read (attestation queries, casefile and webhook verification, UCP negotiation). The per-route switches
// are pre-checked here with the services' own codes (`kill_switch:<name>`), which spares the
// backing call; the services still enforce every switch and state themselves, so when the market
// cannot be asked the request goes through (logged as a warning).
//
// Runs at preHandler, after auth and schema validation: a caller without credentials still gets
// 401/403 first, and a malformed request its 400 without any backing call.

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const EXEMPT_PREFIX = '/v1/market-integrity/';
/** POSTs that only read or check (a query body, an archive to verify): they change nothing. */
const READ_ONLY_POSTS = new Set([
  '/v1/attestations/query',
  '/v1/casefiles/verify',
  '/v1/commerce/ucp/negotiate',
  '/v1/commerce/ucp/webhooks/verify',
  '/v1/commerce/ucp/checkout/:commerce_session_id/casefile/verify',
]);

const guarded = (method: string, url: string): boolean =>
  MUTATIONS.has(method) && url.startsWith('/v1/') && !url.startsWith(EXEMPT_PREFIX) && !(method === 'POST' && READ_ONLY_POSTS.has(url));

/** Route (method + Fastify URL) → the kill switch that blocks it. */
export const ROUTE_SWITCHES: Readonly<Record<string, string>> = {
  'POST /v1/contracts': 'new_contracts',
  'POST /v1/contracts/:contract_id/award/:offer_id': 'awards',
  'POST /v1/wallets/:agent_id/faucet': 'faucet',
  'POST /v1/wallets/:agent_id/withdrawals': 'withdrawals',
};

/** The problem a mutation meets under this snapshot, or null when it may go on. */
export function guardProblem(method: string, routeUrl: string, snapshot: GuardSnapshot) {
  if (!guarded(method, routeUrl)) return null;
  if (snapshot.readOnly) return problem(503, 'read_only', 'the exchange is in read-only mode; retry later', { deliberate: true });
  const name = ROUTE_SWITCHES[`${method} ${routeUrl}`];
  if (name && snapshot.enabledSwitches.has(name)) return problem(503, `kill_switch:${name}`, `the ${name} kill switch is on; retry later`, { deliberate: true });
  return null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The guard's view of the integrity snapshot (refresh it after the gateway's own integrity changes). */
    integrityCache: IntegrityCache;
  }
}

export default fp<{ ttlMs: number }>(
  async (fastify, opts) => {
    const { integrity } = fastify;
    const cache = new IntegrityCache(
      async (requestId): Promise<GuardSnapshot> => {
        const res = await integrity.getIntegrityState({}, { requestId, traceId: requestId, deadlineMs: 1000 });
        return guardViewOf(res.integrity);
      },
      opts.ttlMs,
      (err) => fastify.log.warn({ err: (err as Error).message }, 'integrity state unavailable: read_only/kill-switch guard lets mutations through'),
    );
    fastify.decorate('integrityCache', cache);

    fastify.addHook('preHandler', async (request) => {
      const url = request.routeOptions.url;
      if (request.is404 || url === undefined || !guarded(request.method, url)) return;
      const snapshot = await cache.get(request.id);
      if (snapshot === null) return;
      const refusal = guardProblem(request.method, url, snapshot);
      if (refusal) throw refusal;
    });
  },
  { name: 'integrity-guard', dependencies: ['grpc-clients', 'auth'] },
);
