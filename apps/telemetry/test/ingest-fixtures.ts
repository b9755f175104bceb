import { newEvent, type EventEnvelope } from '@exchange/events';
import { uuidv7 } from '@exchange/platform';
import { commerceV1, commerceV1Events, identityV1Events, marketV1, marketV1Events, registryV1, registryV1Events, telemetryV1, telemetryV1Events, walletV1, walletV1Events, workflowsV1Events } from '@exchange/proto';

// Realistic events as the producers publish them (the proto3 JSON of each events.proto message),
// for the ingest, redaction and category tests (and anyone seeding the event store).

export interface Parties {
  contractId: string;
  buyer: string;
  seller: string;
  alias: string;
  at: Date;
}

export function newParties(tag = 'fx'): Parties {
  const n = uuidv7().slice(-12);
  return { contractId: `ctr_${tag}_${n}`, buyer: `agt_buyer_${tag}_${n}`, seller: `agt_seller_${tag}_${n}`, alias: 'anon:abcdefghijkl', at: new Date('2026-11-02T10:00:00.000Z') };
}

/** An envelope at a given time (events in tests are laid out on a clock the test controls). */
export function envelope(type: string, subjectId: string, data: unknown, at: Date, actor: string | null = null): EventEnvelope {
  return { ...newEvent({ type, source: type.split('.')[1], subjectId, actor, data }), occurred_at: at.toISOString() };
}

const plus = (d: Date, minutes: number): Date => new Date(d.getTime() + minutes * 60_000);
const C = marketV1.ContractStatus;

export interface ContractOptions {
  status?: marketV1.ContractStatus;
  minutes?: number;
  buyerPrivate?: boolean;
  /** Put the private buyer's id in contract.buyer_id too (an older producer did). */
  leakBuyer?: boolean;
  tags?: string[];
  sandbox?: boolean;
  labels?: Record<string, string>;
  price?: string;
  disputedFrom?: marketV1.ContractStatus;
}

export function contract(p: Parties, o: ContractOptions = {}): marketV1.Contract {
  const status = o.status ?? C.CONTRACT_STATUS_OPEN;
  const updatedAt = plus(p.at, o.minutes ?? 0);
  const priv = o.buyerPrivate ?? true;
  const awarded = status !== C.CONTRACT_STATUS_OPEN && status !== C.CONTRACT_STATUS_EXPIRED && status !== C.CONTRACT_STATUS_CANCELLED;
  const settled = status === C.CONTRACT_STATUS_SETTLED || status === C.CONTRACT_STATUS_CORRECTED;
  return marketV1.Contract.fromPartial({
    contractId: p.contractId,
    buyerId: priv && !o.leakBuyer ? '' : p.buyer,
    title: 'Label 500 images',
    description: 'Bounding boxes for 500 street images',
    tags: o.tags ?? ['vision', 'labeling'],
    budget: { amount: '25.5', currency: 'CREDIT' },
    deadline: plus(p.at, 7 * 24 * 60),
    acceptanceCriteria: 'IoU >= 0.8',
    verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
    status,
    sellerId: awarded ? p.seller : undefined,
    awardedOfferId: awarded ? `off_${p.contractId}` : undefined,
    price: awarded ? { amount: o.price ?? '20', currency: 'CREDIT' } : undefined,
    holdId: awarded ? `hld_${p.contractId}` : undefined,
    receiptId: settled ? `rcp_${p.contractId}` : undefined,
    cancelReason: status === C.CONTRACT_STATUS_CANCELLED ? `buyer ${p.buyer} changed plans` : undefined,
    disputedFrom: o.disputedFrom,
    createdAt: p.at,
    updatedAt,
    awardedAt: awarded ? plus(p.at, 1) : undefined,
    settledAt: settled ? updatedAt : undefined,
    buyerPrivate: priv,
    buyerAlias: priv ? p.alias : undefined,
    sandbox: o.sandbox ?? true,
    labels: o.labels ?? {},
    correctionReason: status === C.CONTRACT_STATUS_CORRECTED ? `wrong seller, buyer ${p.buyer} complained` : undefined,
    correctionReceiptId: status === C.CONTRACT_STATUS_CORRECTED ? `rcp_fix_${p.contractId}` : undefined,
  });
}

export function contractEvent(p: Parties, verb: string, o: ContractOptions = {}, actor: string | null = p.buyer): EventEnvelope {
  const c = contract(p, o);
  const data = marketV1Events.ContractChanged.toJSON({ contract: c, restricted: c.buyerPrivate ? { buyerId: p.buyer } : undefined });
  return envelope(`exchange.market.contract.${verb}`, p.contractId, data, plus(p.at, o.minutes ?? 0), actor);
}

const STATUS_OF_VERB: Record<string, marketV1.ContractStatus> = {
  created: C.CONTRACT_STATUS_OPEN, awarded: C.CONTRACT_STATUS_AWARDED, delivered: C.CONTRACT_STATUS_DELIVERED,
  accepted: C.CONTRACT_STATUS_ACCEPTED, settled: C.CONTRACT_STATUS_SETTLED, disputed: C.CONTRACT_STATUS_DISPUTED,
  refunded: C.CONTRACT_STATUS_REFUNDED, split: C.CONTRACT_STATUS_SPLIT, cancelled: C.CONTRACT_STATUS_CANCELLED,
  expired: C.CONTRACT_STATUS_EXPIRED, reopened: C.CONTRACT_STATUS_AWARDED, corrected: C.CONTRACT_STATUS_CORRECTED,
  buyer_alias_updated: C.CONTRACT_STATUS_AWARDED,
};

/** One event of every public type about `p`'s contract (private buyer, its id also where older producers put it). */
export function publicFixtures(p: Parties): Record<string, EventEnvelope> {
  const out: Record<string, EventEnvelope> = {};
  let minute = 0;
  for (const [verb, status] of Object.entries(STATUS_OF_VERB)) {
    out[`exchange.market.contract.${verb}`] = contractEvent(p, verb, { status, minutes: minute++, leakBuyer: true });
  }
  const at = (m: number) => plus(p.at, m);
  const restricted = { buyerId: p.buyer };
  const listingId = `lst_${p.contractId}`;
  out['exchange.market.listing.created'] = envelope('exchange.market.listing.created', listingId, marketV1Events.ListingCreated.toJSON({
    listing: { listingId, sellerId: p.seller, title: 'Image labeling', description: 'fast', tags: ['vision'], price: { amount: '10', currency: 'CREDIT' }, createdAt: at(0), updatedAt: at(0) },
  }), at(0), p.seller);
  for (const [verb, status] of [['submitted', 1], ['awarded', 2], ['rejected', 3], ['withdrawn', 4]] as const) {
    out[`exchange.market.offer.${verb}`] = envelope(`exchange.market.offer.${verb}`, `off_${p.contractId}`, marketV1Events.OfferChanged.toJSON({
      offer: { offerId: `off_${p.contractId}`, contractId: p.contractId, sellerId: p.seller, price: { amount: '20', currency: 'CREDIT' }, eta: at(60), terms: 'two rounds', status, createdAt: at(1), updatedAt: at(2) },
    }), at(2), verb === 'awarded' ? 'operator:ops' : verb === 'rejected' ? p.buyer : p.seller);
  }
  for (const [verb, status] of [['submitted', 1], ['accepted', 2], ['rejected', 3]] as const) {
    out[`exchange.market.result.${verb}`] = envelope(`exchange.market.result.${verb}`, `res_${p.contractId}`, marketV1Events.ResultChanged.toJSON({
      result: { resultId: `res_${p.contractId}`, contractId: p.contractId, sellerId: p.seller, summary: `for ${p.buyer}: all boxes`, artifactRefs: [`sha256:${'a'.repeat(64)}`], payloadJson: JSON.stringify({ to: p.buyer }), status, createdAt: at(3), updatedAt: at(3) },
    }), at(3), verb === 'submitted' ? p.seller : p.buyer);
  }
  // Mode buyer: the private buyer is the verifier.
  out['exchange.market.verification.submitted'] = envelope('exchange.market.verification.submitted', `vrp_${p.contractId}`, marketV1Events.VerificationSubmitted.toJSON({
    report: { reportId: `vrp_${p.contractId}`, contractId: p.contractId, resultId: `res_${p.contractId}`, verifierId: p.buyer, verdict: marketV1.Verdict.VERDICT_PASS, score: 0.9, checks: [{ name: 'iou', ok: true, detail: `checked by ${p.buyer}` }], signature: 'c2ln', createdAt: at(4) },
  }), at(4), p.buyer);
  out['exchange.market.verifier.registered'] = envelope('exchange.market.verifier.registered', 'agt_verifier', marketV1Events.VerifierRegistered.toJSON({
    verifier: { verifierId: 'agt_verifier', name: 'Checker', description: 'checks', tags: ['vision'], fee: { amount: '1', currency: 'CREDIT' }, createdAt: at(0), updatedAt: at(0) },
  }), at(0), 'agt_verifier');
  out['exchange.market.verifier_listing.created'] = envelope('exchange.market.verifier_listing.created', 'vls_1', marketV1Events.VerifierListingCreated.toJSON({
    verifierListing: { verifierListingId: 'vls_1', verifierId: 'agt_verifier', title: 'IoU checks', tags: ['vision'], price: { amount: '1', currency: 'CREDIT' }, turnaround: 'PT2H', createdAt: at(0), updatedAt: at(0) },
  }), at(0), 'agt_verifier');
  const dispute = { disputeId: `dsp_${p.contractId}`, contractId: p.contractId, openedBy: p.buyer, reason: `${p.buyer} says boxes are off`, evidenceRefs: [`sha256:${'b'.repeat(64)}`], createdAt: at(5), updatedAt: at(5) };
  out['exchange.market.dispute.opened'] = envelope('exchange.market.dispute.opened', dispute.disputeId, marketV1Events.DisputeChanged.toJSON({
    dispute: { ...dispute, status: marketV1.DisputeStatus.DISPUTE_STATUS_OPEN }, restricted,
  }), at(5), p.buyer);
  out['exchange.market.dispute.resolved'] = envelope('exchange.market.dispute.resolved', dispute.disputeId, marketV1Events.DisputeChanged.toJSON({
    dispute: { ...dispute, status: marketV1.DisputeStatus.DISPUTE_STATUS_RESOLVED, outcome: marketV1.DisputeOutcome.DISPUTE_OUTCOME_SPLIT, sellerShareBps: 5000, rationale: `half to ${p.buyer}`, resolvedBy: 'operator:ops', resolvedAt: at(6), receiptId: 'rcp_split' }, restricted,
  }), at(6), 'operator:ops');
  const threadId = `thr_${p.contractId}`;
  out['exchange.market.thread.created'] = envelope('exchange.market.thread.created', threadId, marketV1Events.ThreadCreated.toJSON({
    thread: { threadId, title: 'Questions', tags: ['vision', 'coordination'], createdBy: p.buyer, contractId: p.contractId, postCount: 0, createdAt: at(7), updatedAt: at(7) }, restricted,
  }), at(7), p.buyer);
  out['exchange.market.post.created'] = envelope('exchange.market.post.created', `pst_${p.contractId}`, marketV1Events.PostCreated.toJSON({
    post: { postId: `pst_${p.contractId}`, threadId, author: p.buyer, body: 'Use the v2 label set', attachments: [], createdAt: at(8) }, restricted,
  }), at(8), p.buyer);
  out['exchange.market.fixture.indexed'] = envelope('exchange.market.fixture.indexed', 'fix_1', marketV1Events.FixtureIndexed.toJSON({
    fixture: { fixtureId: 'fix_1', type: 'unit_tests', evidenceTier: 'reproducible', determinismClass: 'deterministic', specJson: '{}', objectId: 'obj_1', signerAgentId: p.seller, tags: ['vision'], createdAt: at(0) },
  }), at(0), p.seller);
  for (const [verb, subject] of [['state_changed', 'restricted'], ['kill_switch_set', 'awards'], ['erroneous_clear', p.contractId]] as const) {
    out[`exchange.market.integrity.${verb}`] = envelope(`exchange.market.integrity.${verb}`, subject, marketV1Events.IntegrityChanged.toJSON({
      audit: { auditId: `aud_${verb}`, action: verb, operator: 'operator:ops', reason: `complaint by ${p.buyer}`, subject, detailsJson: JSON.stringify({ buyer: p.buyer }), createdAt: at(9) },
      integrity: { state: 3, since: at(9), reason: `complaint by ${p.buyer}`, setBy: 'operator:ops', killSwitches: [{ name: 'awards', enabled: true, reason: `because of ${p.buyer}`, setBy: 'operator:ops', updatedAt: at(9) }], walletControlsSynced: true },
    }), at(9), 'operator:ops');
  }
  return out;
}

/** Events of operator-only types (their public view is null), about `p`'s contract where they can be. */
export function operatorFixtures(p: Parties): EventEnvelope[] {
  const at = plus(p.at, 10);
  const hold = walletV1.Hold.fromPartial({ holdId: `hld_${p.contractId}`, agentId: p.buyer, amount: '20', currency: 'CREDIT', status: 1, reference: p.contractId, controller: 'market', createdAt: at, updatedAt: at });
  const session = commerceV1.CheckoutSession.fromPartial({
    commerceSessionId: `cs_${p.contractId}`, buyerAgentId: p.buyer, merchantDomain: 'sandbox-merchant.local', status: commerceV1.CheckoutStatus.CHECKOUT_STATUS_INCOMPLETE,
    currency: 'USD', total: '12.34', listTotal: '12.34', savings: '0', createdAt: at, updatedAt: at, origin: { contractId: p.contractId },
  });
  const artifactRef = `sha256:${'c'.repeat(64)}`;
  return [
    envelope('exchange.wallet.hold.created', hold.holdId, walletV1Events.HoldChanged.toJSON({ hold }), at, 'system:market'),
    envelope('exchange.wallet.receipt.issued', `rcp_${p.contractId}`, walletV1Events.ReceiptIssued.toJSON({
      receipt: { receiptId: `rcp_${p.contractId}`, kind: 1, contractId: p.contractId, holdId: hold.holdId, payer: p.buyer, payee: p.seller, amount: '20', fee: '0.2', refundedAmount: '0', currency: 'CREDIT', journalEntryIds: [], settledAt: at, signature: 's', signerPublicKey: 'k' },
      hold,
    }), at, 'system:market'),
    envelope('exchange.commerce.checkout.created', session.commerceSessionId, commerceV1Events.CheckoutChanged.toJSON({ session }), at, p.buyer),
    envelope('exchange.commerce.purchase.recorded', `deal_${p.contractId}`, commerceV1Events.PurchaseRecorded.toJSON({
      purchase: { dealId: `deal_${p.contractId}`, commerceSessionId: session.commerceSessionId, buyerAgentId: p.buyer, merchantDomain: 'sandbox-merchant.local', amount: '12.34', currency: 'USD', receiptId: 'rcp_c', receiptJson: '{}', completedAt: at, origin: { contractId: p.contractId } },
    }), at, p.buyer),
    envelope('exchange.identity.agent.registered', p.buyer, identityV1Events.AgentRegistered.toJSON({ agent: { agentId: p.buyer } as never }), at, p.buyer),
    envelope('exchange.registry.artifact.uploaded', artifactRef, registryV1Events.ArtifactChanged.toJSON({
      artifact: registryV1.Artifact.fromPartial({ artifactRef, sizeBytes: '10', mediaType: 'text/plain', contractId: p.contractId, parties: [p.buyer, p.seller], uploadedBy: p.seller, createdAt: at, updatedAt: at }),
    }), at, p.seller),
    envelope('exchange.registry.artifact.delivered', artifactRef, registryV1Events.ArtifactDelivered.toJSON({
      receipt: { deliveryReceiptId: 'dr_1', artifactRef, agentId: p.buyer, sizeBytes: '10', deliveredAt: at, signature: 's', signerPublicKey: 'k' },
    }), at, p.buyer),
    envelope('exchange.workflows.task.posted', 'tsk_1', workflowsV1Events.TaskChanged.toJSON({ task: { taskId: 'tsk_1', workflowRunId: 'run_1', stage: 'a', contractId: p.contractId } as never }), at, 'system:workflows'),
    envelope('exchange.market.resale_review.created', 'rld_1', marketV1Events.ResaleReviewChanged.toJSON({ review: { decisionRef: 'rld_1', contractId: p.contractId, resaleOf: 'ctr_root', rootContractId: 'ctr_root', depth: 1, lineage: ['ctr_root'], status: 1, createdAt: at, updatedAt: at } }), at, p.buyer),
    envelope('exchange.telemetry.matching_signal.recorded', 'sig_1', telemetryV1Events.MatchingSignalRecorded.toJSON({
      signal: { signalId: 'sig_1', signal: telemetryV1.SignalType.SIGNAL_TYPE_CLICK, recordedBy: p.buyer, contractId: p.contractId, sellerId: p.seller, occurredAt: at, recordedAt: at },
    }), at, p.buyer),
  ];
}
