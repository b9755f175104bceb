import { errors, isId } from '@exchange/platform';

// Where a checkout comes from: a market contract or a workflow run the buyer takes part in.
// Telemetry's bytes-to-atoms rollup counts the purchases of such checkouts, so an origin is
// checked against its source when the session is created and never changes afterwards.

export type CheckoutOrigin = { kind: 'contract'; contractId: string } | { kind: 'workflow_run'; workflowRunId: string };

/** The two optional ids of the request (proto CheckoutOrigin). */
export interface OriginInput {
  contractId?: string;
  workflowRunId?: string;
}

/** What commerce needs to know of the sources (implemented by clients/origin.client.ts). */
export interface OriginSources {
  /** The contract's buyer and awarded seller, or null when the market does not know it. */
  contractParties(contractId: string): Promise<{ buyerId: string; sellerId: string | null } | null>;
  /** Whether the run exists and `agentId` owns it (workflows answers both the same way: 404). */
  runOwnedBy(workflowRunId: string, agentId: string): Promise<boolean>;
}

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });

/** Exactly one id, of the right shape, when an origin is given (400 validation_failed naming the field). */
export function parseOrigin(input: OriginInput | undefined): CheckoutOrigin | null {
  if (input === undefined) return null;
  const contractId = input.contractId ?? '';
  const workflowRunId = input.workflowRunId ?? '';
  if ((contractId === '') === (workflowRunId === '')) {
    throw invalid('origin', 'origin names exactly one of contract_id or workflow_run_id');
  }
  if (contractId !== '') {
    if (!isId('ctr', contractId)) throw invalid('origin.contract_id', 'origin.contract_id is not a contract id (ctr_…)');
    return { kind: 'contract', contractId };
  }
  if (!isId('run', workflowRunId)) throw invalid('origin.workflow_run_id', 'origin.workflow_run_id is not a workflow run id (run_…)');
  return { kind: 'workflow_run', workflowRunId };
}

/**
 * The buyer must be the contract's buyer or its awarded seller (else 403 origin_not_allowed); an
 * unknown contract is 404 contract_not_found. A run that is unknown or not the buyer's is 404
 * workflow_run_not_found, as workflows answers it: a stranger learns nothing about other runs.
 */
export async function verifyOrigin(sources: OriginSources, origin: CheckoutOrigin, buyerAgentId: string): Promise<void> {
  if (origin.kind === 'contract') {
    const parties = await sources.contractParties(origin.contractId);
    if (parties === null) throw errors.notFound('contract', origin.contractId);
    if (parties.buyerId !== buyerAgentId && parties.sellerId !== buyerAgentId) {
      throw errors.permissionDenied('origin_not_allowed', 'the buyer is neither the buyer nor the awarded seller of the origin contract', {
        contract_id: origin.contractId,
      });
    }
    return;
  }
  if (!(await sources.runOwnedBy(origin.workflowRunId, buyerAgentId))) throw errors.notFound('workflow_run', origin.workflowRunId);
}

/** The origin as stored columns (both null without one). */
export function originColumns(origin: CheckoutOrigin | null): { contractId: string | null; workflowRunId: string | null } {
  return {
    contractId: origin?.kind === 'contract' ? origin.contractId : null,
    workflowRunId: origin?.kind === 'workflow_run' ? origin.workflowRunId : null,
  };
}

/** Back from the stored columns (the CHECK keeps at most one set). */
export function originOf(contractId: string | null, workflowRunId: string | null): CheckoutOrigin | null {
  if (contractId !== null) return { kind: 'contract', contractId };
  if (workflowRunId !== null) return { kind: 'workflow_run', workflowRunId };
  return null;
}

/** The origin in an idempotency fingerprint: absent without one, so older fingerprints stay equal. */
export function originFingerprint(origin: CheckoutOrigin | null): Record<string, unknown> {
  return origin === null ? {} : { origin: originColumns(origin) };
}
