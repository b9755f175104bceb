// Real values the fuzzer created before it started (agents, a funded wallet, contracts…), and
// which field or parameter name refers to which of them, so generated requests reach the code
// behind "not found".

export const POOL_NAMES = [
  'agent',
  'contract',
  'offer',
  'listing',
  'result',
  'dispute',
  'hold',
  'deposit',
  'withdrawal',
  'payoutDestination',
  'receipt',
  'thread',
  'template',
  'workProductTemplate',
  'object',
  'artifact',
  'decision',
  'pubkey',
  'fixture',
  'docket',
  'archive',
  'mandate',
  'commerceSession',
  'merchantDomain',
  'workflowRun',
  'subscription',
  'taskEvent',
  'tag',
  'projection',
  'periodReceipt',
  'proxyRun',
  'deal',
  'case',
] as const;
export type PoolName = (typeof POOL_NAMES)[number];

/** Real values by pool; a missing or empty pool means none could be created. */
export type Pools = Partial<Record<PoolName, unknown[]>>;

export const AGENT_ID_PATTERN = '^[a-z0-9][a-z0-9._-]{0,62}:agent:[a-z0-9][a-z0-9._-]{0,62}$';

const BY_NAME: Record<string, PoolName> = {
  contract_id: 'contract',
  resale_of: 'contract',
  offer_id: 'offer',
  listing_id: 'listing',
  result_id: 'result',
  dispute_id: 'dispute',
  hold_id: 'hold',
  deposit_id: 'deposit',
  withdrawal_id: 'withdrawal',
  payout_destination_id: 'payoutDestination',
  receipt_id: 'receipt',
  receipt_ids: 'receipt',
  thread_id: 'thread',
  template_id: 'template',
  work_product_template_id: 'workProductTemplate',
  object_id: 'object',
  object_ids: 'object',
  subject_ref: 'object',
  artifact_ref: 'artifact',
  artifact_refs: 'artifact',
  attachments: 'artifact',
  attachment: 'artifact',
  evidence_refs: 'artifact',
  decision_ref: 'decision',
  pubkey: 'pubkey',
  fixture_id: 'fixture',
  docket: 'docket',
  archive_base64: 'archive',
  mandate_id: 'mandate',
  commerce_session_id: 'commerceSession',
  merchant_domain: 'merchantDomain',
  // A mandate's scope lists merchant domains.
  merchants: 'merchantDomain',
  workflow_run_id: 'workflowRun',
  // The tasks list filter `run`.
  run: 'workflowRun',
  subscription_id: 'subscription',
  event_ids: 'taskEvent',
  up_to: 'taskEvent',
  // Telemetry's category path parameter: a tag the fixtures' contracts and listings carry.
  tag: 'tag',
  // Telemetry's merchant filter is a merchant domain.
  merchant_id: 'merchantDomain',
  projection_id: 'projection',
  period_receipt_id: 'periodReceipt',
  // A gateway proxy run (the proxy's own run ids, not workflow runs).
  run_id: 'proxyRun',
  // A completed checkout's purchase, and a post-purchase case on it.
  deal_id: 'deal',
  case_id: 'case',
};

const AGENT_NAMES = new Set(['buyer_id', 'seller_id', 'verifier_id', 'reveal_to', 'author', 'created_by', 'opened_by', 'parties', 'signer_agent_id']);

/** The pool a field, parameter or array (by its name) draws real values from, if any. */
export function poolFor(name: string, pattern?: string): PoolName | null {
  if (BY_NAME[name]) return BY_NAME[name];
  if (name.endsWith('agent_id') || name.endsWith('agent_ids') || AGENT_NAMES.has(name) || pattern === AGENT_ID_PATTERN) return 'agent';
  return null;
}

/** The non-empty pool of that name, or null. */
export function poolValues(pools: Pools, name: PoolName | null): unknown[] | null {
  if (!name) return null;
  const values = pools[name];
  return values && values.length > 0 ? values : null;
}

/** Per-agent pools of several setups in one map (an agent's values of both, one after the other). */
export function mergeActorPools(...maps: Array<ReadonlyMap<string, Pools>>): Map<string, Pools> {
  const out = new Map<string, Pools>();
  for (const map of maps) {
    for (const [agentId, pools] of map) {
      const merged: Pools = { ...out.get(agentId) };
      for (const [name, values] of Object.entries(pools) as Array<[keyof Pools, unknown[] | undefined]>) {
        merged[name] = [...(merged[name] ?? []), ...(values ?? [])];
      }
      out.set(agentId, merged);
    }
  }
  return out;
}
