/**
 * Cases test helpers on top of the saga harness (real wallet-ledger, real sandbox merchant,
 * commerce in process): a completed purchase to open cases on, and the calls of the cases RPCs.
 *
 *   const p = await bought(h, client, '100')        buyer funded with 100 USD, bought two roses (70)
 *   await open(client, p, { amount: '10' })         CreateCase as the buyer → the case
 *   await move(client, caseId, 'under_review')      UpdateCase as the operator
 */
import { createServiceClient } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import type { CommerceClient, SagaHarness } from './saga-harness';

export const operator = { agentId: '', operator: true };
export const agent = (agentId: string) => ({ agentId, operator: false });

export interface Bought {
  buyer: string;
  dealId: string;
  receiptId: string;
  amount: string;
}

export function commerceClient(h: SagaHarness): CommerceClient {
  return createServiceClient(commerceV1.CommerceServiceService, `127.0.0.1:${h.commerce!.grpcPort}`, { defaultDeadlineMs: 60_000 });
}

/** A buyer funded with `fund` USD that bought two roses (70 USD) at the sandbox merchant. */
export async function bought(h: SagaHarness, client: CommerceClient, fund = '100'): Promise<Bought> {
  const buyer = await h.newBuyer(fund);
  const mandateId = await h.insertMandate(buyer, { total: '500' });
  const { sessionId } = await h.readySession(buyer, mandateId, [['bouquet_roses', 2]]);
  const res = await client.completeCheckout(commerceV1.CompleteCheckoutRequest.fromPartial({ actor: agent(buyer), commerceSessionId: sessionId, idempotencyKey: `c-${sessionId}` }));
  const p = res.purchase!;
  return { buyer, dealId: p.dealId, receiptId: p.receiptId, amount: p.amount };
}

export async function open(client: CommerceClient, p: Bought, over: Partial<commerceV1.CreateCaseRequest> = {}): Promise<commerceV1.PostPurchaseCase> {
  const res = await client.createCase(
    commerceV1.CreateCaseRequest.fromPartial({ actor: agent(p.buyer), dealId: p.dealId, type: commerceV1.CaseType.CASE_TYPE_REFUND, reason: 'arrived broken', ...over }),
  );
  return res.case!;
}

const STATUS = {
  under_review: commerceV1.CaseStatus.CASE_STATUS_UNDER_REVIEW,
  approved: commerceV1.CaseStatus.CASE_STATUS_APPROVED,
  denied: commerceV1.CaseStatus.CASE_STATUS_DENIED,
  closed: commerceV1.CaseStatus.CASE_STATUS_CLOSED,
};

export function move(client: CommerceClient, caseId: string, status: keyof typeof STATUS, actor: { agentId: string; operator: boolean } = operator) {
  return client.updateCase(commerceV1.UpdateCaseRequest.fromPartial({ actor, caseId, status: STATUS[status] }));
}
