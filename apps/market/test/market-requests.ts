import { errorInfoFromGrpc, type GrpcErrorInfo } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';

// Request defaults and the error of a failing call, for the market's gRPC tests (re-exported by
// market-harness.ts, so tests keep importing them from there).

/** The error a call failed with, as the gateway sees it; fails the test when the call succeeded. */
export async function grpcError(call: Promise<unknown>): Promise<GrpcErrorInfo> {
  try {
    await call;
  } catch (err) {
    return errorInfoFromGrpc(err);
  }
  throw new Error('expected the call to fail');
}

const HOUR = 3_600_000;

/** A valid CreateContractRequest (budget 100 CREDIT, deadline in a day, mode buyer). */
export function contractInput(overrides: Partial<marketV1.CreateContractRequest> = {}): marketV1.CreateContractRequest {
  return marketV1.CreateContractRequest.fromPartial({
    title: 'Summarise a paper',
    description: 'Two paragraphs',
    tags: ['nlp', 'summary'],
    budget: { amount: '100', currency: 'CREDIT' },
    deadline: new Date(Date.now() + 24 * HOUR),
    acceptanceCriteria: 'Mentions the main result',
    verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
    ...overrides,
  });
}

/** A valid SubmitOfferRequest for a contract (price 100 CREDIT, eta in 12 hours). */
export function offerInput(contractId: string, overrides: Partial<marketV1.SubmitOfferRequest> = {}): marketV1.SubmitOfferRequest {
  return marketV1.SubmitOfferRequest.fromPartial({
    contractId,
    price: { amount: '100', currency: 'CREDIT' },
    eta: new Date(Date.now() + 12 * HOUR),
    terms: 'Within the day',
    ...overrides,
  });
}
