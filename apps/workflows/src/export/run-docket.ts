import { recordEntry, signDocket, type Docket, type DocketEntry } from '@exchange/casefile';
import { formatAmount } from '@exchange/platform';

// A run's casefile docket (libs/casefile), signed by the exchange key: the run (with its stages),
// each task, then every shard contract's own docket entries as the registry exported them
// (contract, offers, results, reports, disputes, receipts, artifacts), each kind+ref once.

/** A stored row as read (column → value). */
export type StoredRow = Record<string, unknown>;

export interface RunSources {
  run: StoredRow;
  stages: StoredRow[];
  /** In stage, shard, attempt order. */
  tasks: StoredRow[];
}

/** Where a shard contract's docket comes from (the registry). */
export interface ContractDocketSource {
  contractDocket(contractId: string): Promise<Docket>;
}

const RUN_MONEY = ['budget', 'spent', 'committed'];
const TASK_MONEY = ['price'];
const SPEC_MONEY = ['budget'];

/** A row as the casefile shows it: timestamps ISO 8601, money as exchange decimals, absent → null. */
export function recordView(row: StoredRow, moneyColumns: readonly string[]): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value === undefined || value === null) view[key] = null;
    else if (value instanceof Date) view[key] = value.toISOString();
    else if (moneyColumns.includes(key)) view[key] = formatAmount(BigInt(value as string | number | bigint));
    else view[key] = value;
  }
  return view;
}

/** The run's record: its row with its stages (each shard contract spec's budget as a decimal). */
export function runView(sources: RunSources): Record<string, unknown> {
  const stages = sources.stages.map((stage) => {
    const view = recordView(stage, []);
    const spec = stage['contract_spec'];
    if (spec !== null && typeof spec === 'object' && !Array.isArray(spec)) view['contract_spec'] = recordView(spec as StoredRow, SPEC_MONEY);
    return view;
  });
  return { ...recordView(sources.run, RUN_MONEY), stages };
}

export function taskView(task: StoredRow): Record<string, unknown> {
  return recordView(task, TASK_MONEY);
}

/** Distinct contract ids of the run's tasks, in task order. */
export function shardContractIds(tasks: StoredRow[]): string[] {
  const ids: string[] = [];
  for (const task of tasks) {
    const id = task['contract_id'];
    if (typeof id === 'string' && id !== '' && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The run's entries followed by each contract docket's, skipping any kind+ref already present. */
export function runDocketEntries(sources: RunSources, contractDockets: Docket[]): DocketEntry[] {
  const entries: DocketEntry[] = [recordEntry('workflow_run', String(sources.run['workflow_run_id']), runView(sources))];
  for (const task of sources.tasks) entries.push(recordEntry('workflow_task', String(task['task_id']), taskView(task)));
  const seen = new Set(entries.map((e) => `${e.kind}\u0000${e.ref}`));
  for (const docket of contractDockets) {
    for (const entry of docket.entries) {
      const key = `${entry.kind}\u0000${entry.ref}`;
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push(entry);
    }
  }
  return entries;
}

/** The signed docket of a run (`exchangeSeed`: the exchange's 32-byte ed25519 seed). */
export function runDocket(sources: RunSources, contractDockets: Docket[], exchangeSeed: Uint8Array, now: Date): Docket {
  const subject = { workflow_run_id: String(sources.run['workflow_run_id']), owner_agent_id: String(sources.run['owner_agent_id']) };
  return signDocket({ subject, entries: runDocketEntries(sources, contractDockets), createdAt: now }, exchangeSeed);
}
