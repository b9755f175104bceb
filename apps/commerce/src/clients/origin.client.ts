import { errorInfoFromGrpc, errors, type PromiseClient } from '@exchange/platform';
import type { marketV1, workflowsV1 } from '@exchange/proto';
import { status } from '@grpc/grpc-js';
import type { OriginSources } from '../checkout/origin';

// The market and workflows as a checkout origin's sources. The market is asked as an internal
// service ("operator:commerce", no acting agent) so a private buyer's id is not hidden from us;
// workflows is asked as the buyer itself, so only the run's owner finds it.

export type MarketClient = PromiseClient<typeof marketV1.MarketServiceService>;
export type WorkflowsClient = PromiseClient<typeof workflowsV1.WorkflowsServiceService>;

export const COMMERCE_ACTOR = 'operator:commerce';

const isNotFound = (err: unknown): boolean => errorInfoFromGrpc(err).grpcCode === status.NOT_FOUND;

export function originSources(market: MarketClient, workflows: WorkflowsClient): OriginSources {
  return {
    async contractParties(contractId) {
      try {
        const { contract } = await market.getContract({ contractId }, { actor: COMMERCE_ACTOR });
        if (!contract) return null;
        return { buyerId: contract.buyerId, sellerId: contract.sellerId ?? null };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw errors.unavailable('market_unavailable', 'the market could not be reached to check the checkout origin');
      }
    },
    async runOwnedBy(workflowRunId, agentId) {
      try {
        const { run } = await workflows.getRun({ actor: { agentId, operator: false }, workflowRunId });
        return run !== undefined && run.ownerAgentId === agentId;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw errors.unavailable('service_unavailable', 'workflows could not be reached to check the checkout origin');
      }
    },
  };
}
