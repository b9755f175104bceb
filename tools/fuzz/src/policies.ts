// Operations whose success would change what every later request sees. Market-integrity
// switches run alone (no request in flight sees read-only mode) and are switched back at once;
// a freeze is undone, an identity level put back and a takedown reinstated, so the signing
// agents and the real resources keep working.
import type { Operation } from './openapi';

export interface Restore {
  method: string;
  target: string;
  body: unknown;
}

export interface Policy {
  /** Run with nothing else in flight (and its restore before anything else starts). */
  exclusive: boolean;
  /** Requests that undo a successful call (2xx); `target` is the path that was called. */
  restore(target: string): Restore[];
}

const NONE: Policy = { exclusive: false, restore: () => [] };
const KILL_SWITCHES = ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'];
const reason = 'fuzz: restore';

/** The agent id of `/v1/agents/{agent_id}/…` in a called target (still percent-encoded). */
function agentSegment(target: string): string | null {
  const m = /^\/v1\/agents\/([^/?#]+)\//.exec(target);
  return m ? m[1] : null;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `levels`: identity levels the run's agents had after setup (others were SANDBOX_UNVERIFIED). */
export function policyFor(op: Operation, levels: ReadonlyMap<string, string> = new Map()): Policy {
  if (op.method !== 'POST') return NONE;
  switch (op.path) {
    case '/v1/market-integrity/state':
      return { exclusive: true, restore: () => [{ method: 'POST', target: op.path, body: { state: 'normal', reason } }] };
    case '/v1/market-integrity/kill-switches':
      return {
        exclusive: true,
        restore: () => KILL_SWITCHES.map((name) => ({ method: 'POST', target: op.path, body: { name, enabled: false, reason } })),
      };
    case '/v1/agents/{agent_id}/freeze':
      return {
        exclusive: false,
        restore: (target) => {
          const id = agentSegment(target);
          return id ? [{ method: 'POST', target: `/v1/agents/${id}/unfreeze`, body: { reason } }] : [];
        },
      };
    case '/v1/agents/{agent_id}/identity_level':
      return {
        exclusive: false,
        restore: (target) => {
          const id = agentSegment(target);
          const level = id ? (levels.get(decoded(id)) ?? 'SANDBOX_UNVERIFIED') : null;
          return id ? [{ method: 'POST', target: `/v1/agents/${id}/identity_level`, body: { identity_level: level, reason } }] : [];
        },
      };
    case '/v1/artifacts/{artifact_ref}/takedown':
      return {
        exclusive: false,
        restore: (target) => {
          const m = /^\/v1\/artifacts\/([^/?#]+)\/takedown/.exec(target);
          return m ? [{ method: 'POST', target: `/v1/artifacts/${m[1]}/reinstate`, body: { reason } }] : [];
        },
      };
    default:
      return NONE;
  }
}
