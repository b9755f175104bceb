// Pure fixtures for the evidence area's tests: a chain of evidence records and the casefile
// sources of a session built from it (no database).
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { newId } from '@exchange/platform';
import type { CasefileSources } from '../../src/evidence/casefile-sources.model';
import { GENESIS_HASH, nextLink } from '../../src/evidence/evidence-chain';
import type { EvidenceInput, EvidenceRecord } from '../../src/evidence/evidence.model';

export function evidenceInputs(count: number): EvidenceInput[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: i % 2 === 0 ? 'merchant_request' : 'merchant_response',
    operation: i < 2 ? 'create_checkout' : 'update_checkout',
    content: i % 2 === 0
      ? { method: 'POST', url: 'https://shop.example/checkout-sessions', headers: { 'content-type': 'application/json' }, body: { line_items: [{ item: { id: 'sku_1' }, quantity: i + 1 }] } }
      : { status: 201, headers: {}, body: { id: 'chk_1', n: i, note: 'Résumé ✓', totals: [{ type: 'total', amount: 1250 }] } },
    schemaResult: 'valid',
  }));
}

/** `count` chained records of one session, as appendEvidence would store them. */
export function evidenceChain(sessionId: string, count: number, start = new Date('2026-11-25T10:00:00.000Z')): EvidenceRecord[] {
  let head = { seq: 0, hash: GENESIS_HASH };
  return evidenceInputs(count).map((input, i) => {
    const link = nextLink(head, input.content);
    head = { seq: link.seq, hash: link.hash };
    return { ...input, ...link, evidenceId: newId('evd'), commerceSessionId: sessionId, recordedAt: new Date(start.getTime() + i * 1000) };
  });
}

export const exchangeKeys = (() => {
  const keys = generateKeyPair();
  return { privateKey: keys.privateKey, publicKey: toBase64(keys.publicKey) };
})();

/** A completed session with `count` evidence items, its mandate, purchase and receipt. */
export function casefileSources(count = 3, opts: { purchase?: boolean } = {}): CasefileSources {
  const sessionId = newId('cs');
  const evidence = evidenceChain(sessionId, count);
  const head = evidence.length === 0 ? GENESIS_HASH : evidence[evidence.length - 1].hash;
  const session = { commerceSessionId: sessionId, buyerAgentId: 'agt_buyer', mandateId: 'mdt_1', merchantDomain: 'shop.example', evidenceSeq: count, evidenceHead: head };
  const created = new Date('2026-11-25T09:59:00.000Z');
  const withPurchase = opts.purchase ?? true;
  return {
    session,
    sessionRow: {
      commerce_session_id: sessionId, buyer_agent_id: 'agt_buyer', mandate_id: 'mdt_1', merchant_domain: 'shop.example', status: 'completed',
      approved_total: null, total: '12500000', list_total: '15000000', discount_codes: ['SAVE'], merchant_checkout: { id: 'chk_1' },
      evidence_head: head, evidence_seq: count, created_at: created, updated_at: created,
    },
    mandateRow: { mandate_id: 'mdt_1', per_transaction: '50000000', total_limit: '100000000', spent: '12500000', reserved: '0', step_up_amount: null, daily_limit: null, signature: 'c2ln', signed_payload: { agent_id: 'agt_buyer' }, expires_at: created },
    purchaseRow: withPurchase ? { deal_id: 'deal_1', commerce_session_id: sessionId, amount: '12500000', list_amount: '15000000', currency: 'USD', completed_at: created } : null,
    receipt: withPurchase ? { receiptId: 'rcpt_1', content: { receipt_id: 'rcpt_1', amount: '12.5', signature: 'c2ln' } } : null,
    evidence,
  };
}
