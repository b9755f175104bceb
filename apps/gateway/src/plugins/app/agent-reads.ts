import type { CallOptions } from '@exchange/platform';
import type { identityV1 } from '@exchange/proto';

type GetAgent = (agentId: string, opts: CallOptions) => Promise<identityV1.GetAgentResponse>;

interface Read {
  startedAt: number;
  /** An identity event about the agent arrived while the call was out: its answer may predate it. */
  superseded: boolean;
  answer: Promise<identityV1.GetAgentResponse>;
}

/**
 * GET /v1/agents/{id} reads the agent cache cannot answer: identity's GetAgent, its answer stored
 * in the cache. Concurrent reads of one agent share one call, so every expiry of a hot agent does
 * not send one GetAgent per request in flight; a read joins only a call started at most
 * `maxJoinAgeMs` ago (the staleness the cache already allows) and never one that an identity event
 * about that agent overtook: that call's answer is neither shared with later reads nor cached
 * (AgentCache also refuses any answer older than an event it saw, whoever stores it).
 * With `maxJoinAgeMs` 0 every read makes its own call.
 */
export class AgentReads {
  private readonly inFlight = new Map<string, Read>();

  constructor(
    private readonly getAgent: GetAgent,
    private readonly store: (agent: identityV1.Agent) => void,
    private readonly maxJoinAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  read(agentId: string, opts: CallOptions): Promise<identityV1.GetAgentResponse> {
    const joined = this.inFlight.get(agentId);
    if (joined && this.now() - joined.startedAt <= this.maxJoinAgeMs) return joined.answer;
    // One object: the call's continuation reads the flag that supersede() sets on the entry.
    const state = { superseded: false };
    const answer = this.getAgent(agentId, opts)
      .then((res) => {
        if (res.agent && !state.superseded) this.store(res.agent);
        return res;
      })
      .finally(() => {
        if (this.inFlight.get(agentId) === read) this.inFlight.delete(agentId);
      });
    const read: Read = Object.assign(state, { startedAt: this.now(), answer });
    if (this.maxJoinAgeMs > 0) this.inFlight.set(agentId, read);
    return answer;
  }

  /** An identity event about the agent: the call out now answers only the reads already waiting. */
  supersede(agentId: string): void {
    const read = this.inFlight.get(agentId);
    if (!read) return;
    read.superseded = true;
    this.inFlight.delete(agentId);
  }
}
