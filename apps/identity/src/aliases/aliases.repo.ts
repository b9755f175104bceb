import type pg from 'pg';
import type { AliasStore, PartyAliasRecord } from './alias.ports';
import type { PartyRole } from './party-alias';

interface AliasRow {
  alias: string;
  contract_id: string;
  role: PartyRole;
  generation: number;
  agent_id: string;
  object_id: string | null;
  created_at: Date;
}

const COLUMNS = 'alias, contract_id, role::text AS role, generation, agent_id, object_id, created_at';

const toRecord = (r: AliasRow): PartyAliasRecord => ({
  alias: r.alias,
  contractId: r.contract_id,
  role: r.role,
  generation: r.generation,
  agentId: r.agent_id,
  objectId: r.object_id,
  createdAt: r.created_at,
});

/** party_aliases over a pg Pool; uniqueness of (contract_id, role) and alias is the database's. */
export class PgAliasStore implements AliasStore {
  constructor(private readonly pool: pg.Pool) {}

  async findByContractRole(contractId: string, role: PartyRole, generation: number): Promise<PartyAliasRecord | null> {
    const { rows } = await this.pool.query<AliasRow>(
      `SELECT ${COLUMNS} FROM party_aliases WHERE contract_id = $1 AND role = $2::party_role AND generation = $3`,
      [contractId, role, generation],
    );
    return rows.length === 0 ? null : toRecord(rows[0] as AliasRow);
  }

  async findByAlias(alias: string): Promise<PartyAliasRecord | null> {
    const { rows } = await this.pool.query<AliasRow>(`SELECT ${COLUMNS} FROM party_aliases WHERE alias = $1`, [alias]);
    return rows.length === 0 ? null : toRecord(rows[0] as AliasRow);
  }

  async insert(record: PartyAliasRecord): Promise<PartyAliasRecord | null> {
    const inserted = await this.pool.query<AliasRow>(
      `INSERT INTO party_aliases (alias, contract_id, role, generation, agent_id, object_id, created_at)
       VALUES ($1, $2, $3::party_role, $4, $5, $6, $7)
       ON CONFLICT DO NOTHING
       RETURNING ${COLUMNS}`,
      [record.alias, record.contractId, record.role, record.generation, record.agentId, record.objectId, record.createdAt],
    );
    if (inserted.rows.length > 0) return toRecord(inserted.rows[0] as AliasRow);
    // Either a concurrent mint holds (contract_id, role, generation) — return it — or the alias was taken.
    return this.findByContractRole(record.contractId, record.role, record.generation);
  }

  async setObjectId(alias: string, objectId: string): Promise<void> {
    await this.pool.query('UPDATE party_aliases SET object_id = $2 WHERE alias = $1', [alias, objectId]);
  }
}
