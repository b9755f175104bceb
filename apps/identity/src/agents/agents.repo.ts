import type pg from 'pg';
import type { CursorKey } from '@exchange/platform';
import type { Agent, IdentityTransition } from './agent.model';
import type { AgentListQuery, AgentReader, RegistrationConflicts } from './agent.ports';
import { AGENT_COLUMNS, toAgent, toTransition, type AgentRow, type TransitionRow } from './agent-rows.repo';
import { canNameAgent } from './validation';

// Named statements are parsed and planned once per pooled connection; GetAgent and
// VerifyAgentSignature (the gateway's hot path) run this one.
const GET_AGENT = { name: 'identity_get_agent', text: `SELECT ${AGENT_COLUMNS} FROM agents a WHERE a.agent_id = $1` };
// GetAgents: the agents of one call (up to 1000 ids) in one statement — wallet-ledger's owners of
// concurrent money movements, commerce's buyers of holds. The service passes well-formed ids only:
// PostgreSQL refuses the whole statement for one holding a NUL byte.
const GET_AGENTS = { name: 'identity_get_agents', text: `SELECT ${AGENT_COLUMNS} FROM agents a WHERE a.agent_id = ANY($1::text[])` };
const NONCE_USED = { name: 'identity_nonce_used', text: 'SELECT 1 FROM proof_nonces WHERE nonce = $1' };
const BOUND_PUBKEYS = { name: 'identity_bound_pubkeys', text: 'SELECT pubkey FROM agent_keys WHERE pubkey = ANY($1::text[])' };
const REGISTRATION_CONFLICTS = {
  name: 'identity_registration_conflicts',
  text: `SELECT EXISTS (SELECT 1 FROM agents WHERE agent_id = $1) AS agent_exists,
                EXISTS (SELECT 1 FROM proof_nonces WHERE nonce = $2) AS nonce_used,
                ARRAY (SELECT pubkey FROM agent_keys WHERE pubkey = ANY($3::text[])) AS bound`,
};

/** Reads over a pg Pool: one SQL round trip per call (Prisma would take several). */
export class PgAgentReader implements AgentReader {
  constructor(private readonly pool: pg.Pool) {}

  async get(agentId: string): Promise<Agent | null> {
    if (!canNameAgent(agentId)) return null;
    const { rows } = await this.pool.query<AgentRow>({ ...GET_AGENT, values: [agentId] });
    return rows.length === 0 ? null : toAgent(rows[0]);
  }

  async getMany(agentIds: string[]): Promise<Agent[]> {
    const { rows } = await this.pool.query<AgentRow>({ ...GET_AGENTS, values: [agentIds] });
    return rows.map(toAgent);
  }

  async list(query: AgentListQuery): Promise<Agent[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    if (query.identityLevel !== null) where.push(`a.identity_level = ${param(query.identityLevel)}::identity_level`);
    if (query.status !== null) where.push(`a.status = ${param(query.status)}::agent_status`);
    if (query.after !== null) where.push(`(a.created_at, a.agent_id) < (${param(query.after.createdAt)}, ${param(query.after.id)})`);
    const sql = `SELECT ${AGENT_COLUMNS} FROM agents a ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY a.created_at DESC, a.agent_id DESC LIMIT ${param(query.take)}`;
    const { rows } = await this.pool.query<AgentRow>(sql, values);
    return rows.map(toAgent);
  }

  async listTransitions(agentId: string, after: CursorKey | null, take: number): Promise<IdentityTransition[]> {
    if (!canNameAgent(agentId)) return [];
    const { rows } = await this.pool.query<TransitionRow>(
      `SELECT transition_id, agent_id, from_level, to_level, reason, actor, created_at
         FROM identity_transitions
        WHERE agent_id = $1 AND ($2::timestamptz IS NULL OR (created_at, transition_id) < ($2, $3))
        ORDER BY created_at DESC, transition_id DESC LIMIT $4`,
      [agentId, after?.createdAt ?? null, after?.id ?? '', take],
    );
    return rows.map(toTransition);
  }

  async isNonceUsed(nonce: string): Promise<boolean> {
    const { rowCount } = await this.pool.query({ ...NONCE_USED, values: [nonce] });
    return (rowCount ?? 0) > 0;
  }

  async boundPubkeys(pubkeys: string[]): Promise<string[]> {
    const { rows } = await this.pool.query<{ pubkey: string }>({ ...BOUND_PUBKEYS, values: [pubkeys] });
    return rows.map((r) => r.pubkey);
  }

  async registrationConflicts(agentId: string, nonce: string, pubkeys: string[]): Promise<RegistrationConflicts> {
    const { rows } = await this.pool.query<{ agent_exists: boolean; nonce_used: boolean; bound: string[] }>({
      ...REGISTRATION_CONFLICTS,
      values: [agentId, nonce, pubkeys],
    });
    return { agentExists: rows[0].agent_exists, nonceUsed: rows[0].nonce_used, boundPubkeys: rows[0].bound };
  }
}
