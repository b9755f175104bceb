import { rate } from '../domain/rates';
import type { BytesToAtomsRollup, MerchantVolume, Volume } from './report-types';

// Pure aggregation of the rollups' rows.

/** Σ per currency, sorted by currency. */
export function sumVolumes(parts: ReadonlyArray<Volume>): Volume[] {
  const sums = new Map<string, bigint>();
  for (const p of parts) sums.set(p.currency, (sums.get(p.currency) ?? 0n) + p.amount);
  return [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([currency, amount]) => ({ currency, amount }));
}

/** One group of purchases of the window: merchant, currency and where they came from. */
export interface PurchaseGroup {
  merchantDomain: string;
  currency: string;
  /** A workflow run's purchase counts as from the workflow even when it names its shard contract too. */
  origin: 'workflow' | 'contract' | 'none';
  purchases: number;
  amount: bigint;
}

export function bytesToAtoms(groups: readonly PurchaseGroup[]): Omit<BytesToAtomsRollup, 'range'> {
  const count = (gs: readonly PurchaseGroup[]) => gs.reduce((n, g) => n + g.purchases, 0);
  const volume = (gs: readonly PurchaseGroup[]) => sumVolumes(gs.map((g) => ({ currency: g.currency, amount: g.amount })));
  const fromContracts = groups.filter((g) => g.origin === 'contract');
  const fromWorkflows = groups.filter((g) => g.origin === 'workflow');
  const originated = groups.filter((g) => g.origin !== 'none');
  const byMerchant = new Map<string, PurchaseGroup[]>();
  for (const g of originated) byMerchant.set(g.merchantDomain, [...(byMerchant.get(g.merchantDomain) ?? []), g]);
  const merchants: MerchantVolume[] = [...byMerchant]
    .map(([merchantDomain, gs]) => ({ merchantDomain, purchases: count(gs), volume: volume(gs) }))
    // Most purchases first; ties by domain so the order is stable.
    .sort((a, b) => b.purchases - a.purchases || (a.merchantDomain < b.merchantDomain ? -1 : a.merchantDomain > b.merchantDomain ? 1 : 0));
  const purchases = count(groups);
  return {
    purchases,
    volume: volume(groups),
    fromContracts: count(fromContracts),
    fromContractsVolume: volume(fromContracts),
    fromWorkflows: count(fromWorkflows),
    fromWorkflowsVolume: volume(fromWorkflows),
    originatedShare: rate(count(originated), purchases),
    merchants,
  };
}

/** A completed run (run.completed's run, JSON form): its first stage's start → completion; null without times. */
export function runDurationMs(run: { createdAt?: string; completedAt?: string; stages?: Array<{ startedAt?: string }> }, occurredAt: Date): number | null {
  const starts = (run.stages ?? []).map((s) => (s.startedAt ? Date.parse(s.startedAt) : NaN)).filter((t) => !Number.isNaN(t));
  // A run starts with its first stage; a run without stage times falls back to its creation.
  const started = starts.length > 0 ? Math.min(...starts) : run.createdAt ? Date.parse(run.createdAt) : NaN;
  const completed = run.completedAt ? Date.parse(run.completedAt) : occurredAt.getTime();
  return Number.isNaN(started) || Number.isNaN(completed) ? null : Math.max(0, completed - started);
}
