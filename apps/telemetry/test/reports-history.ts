/**
 * One seeded history for the weekly report, the rollups and the outcome metrics (October 2026,
 * UTC; the service's clock stands at NOW, a Wednesday). The default week is the last complete
 * one, W = [Mon 10-12, Mon 10-19). Every expected figure in reports.spec.ts and outcomes.spec.ts
 * is worked out by hand from the tables below.
 *
 * Contracts (settle time = created → settled):
 *   C1  B1  [data,nlp]    USD  created 10-12T10 awarded S1 10-12T12 delivered 10-13T00 settled 10-13T10  price 100 (24h)
 *   C2  B1  [data]        USD  created 10-13T00 awarded S2 10-13T06 settled 10-14T12                    price 50  (36h)
 *   C3  B2  [nlp,vision]  USD  created 10-14T00 awarded S1 10-14T01 disputed 10-15 refunded 10-16
 *   C4  BP* [data]        USD  created 10-14T08 awarded S3 10-14T09 disputed 10-15 split 10-17
 *   C5  B2  [data]        USD  created 10-15T00 cancelled 10-15T06
 *   C6  B2  [ops]         USD  created 10-05 expired 10-12T00 (the week's first instant)
 *   C7  BS  [data,sandbox-tag] CREDIT sandbox: created 10-13T00 awarded S4 10-13T01 settled 10-13T05 price 7 (5h)
 *   C8  B1  [vision]      USD  created 10-18T00 awarded S3 10-18T12 settled 10-19T00 (next week)         price 30  (24h)
 *   C9  B1  [data]        EUR  created 10-19T01 awarded S1 10-19T02 settled 10-20T02                    price 20  (25h)
 *   C10 B2  [nlp]         USD  created 10-01T00 awarded S2 10-01T06 settled 10-03T00                    price 10  (42h)
 *   C11 B2  [data]        USD  created 10-11T23:59:59.999 awarded S1 10-12T00 delivered 10-12T01 settled 10-12T02 price 5 (2h + 1 ms)
 *   C12 BP* [misc]        USD  created 10-20T00, buyer alias updated 10-20T06 (still open)
 *   (* private buyer: the public part blanks the buyer; `restricted` carries it)
 * Disputes: C3 opened 10-15 (B2) resolved 10-16; C4 opened 10-15 (BP) resolved 10-17.
 * Integrity: state elevated 10-13, halted 10-16, normal 10-20; kill switch 10-16T00:01; erroneous
 *   clear 10-17; resale review decided 10-18T06. Identity: registered 10-10, 10-12T00, 10-16,
 *   10-19T00; frozen 10-17, unfrozen 10-18.
 * Coordination: T1 on C4 by BP 10-14T10, T2 on C1 by B1 10-12T11, T3 (no contract) by S2 10-15;
 *   posts T1 BP 10-14T10, T1 S3 10-14T11, T2 S1 10-12T12, T2 B1 10-13T00, T1 BP 10-15.
 * Workflows: R1 created 10-12T23, started 10-13T00 (stage started, 2 tasks posted), a task retried
 *   10-13T06, 2 tasks settled and the stage completed 10-13T12, completed 10-14T00 (24h);
 *   R2 started 10-16, failed 10-17; R3 stages started 10-18T00 and 10-18T12, completed 10-19T06 (30h).
 * Commerce (merchant, buyer, total, origin; created → ended):
 *   K1 shop.example B1 40 USD contract C1   created 10-13T00 completed 10-13T00:10 (10 min)
 *   K2 shop.example B2 60 USD run R1 (+C2)  created 10-14T00 completed 10-14T01    (1h)
 *   K3 sandbox-merchant.local B1 25 EUR —   created 10-15T00 completed 10-15T00:30 (30 min)
 *   K4 sandbox-merchant.local B2 15 USD C9  created 10-20T00 completed 10-20T02    (2h)
 *   K5 shop.example B1 40 USD —             created 10-16T00 canceled 10-16T01
 *   K6 sandbox-merchant.local B2 9 USD —    created 10-17T00 payment failed 10-17T00:05
 *   each completed one with its purchase at the completion time.
 */
import type { EventEnvelope } from '@exchange/events';
import { newId } from '@exchange/platform';
import {
  agentEvent,
  checkoutEvent,
  contractLifecycle,
  dispute,
  integrity,
  post,
  purchaseEvent,
  resaleDecided,
  runEvent,
  stageEvent,
  taskEvent,
  thread,
  type CheckoutSpec,
  type RunSpec,
} from './reports-seed';

export const NOW = new Date('2026-10-21T12:00:00.000Z');

export const B1 = 'acme:agent:b1';
export const B2 = 'acme:agent:b2';
export const BP = 'acme:agent:private-buyer';
export const BS = 'sbx:agent:sandbox-buyer';
export const S1 = 'acme:agent:s1';
export const S2 = 'acme:agent:s2';
export const S3 = 'acme:agent:s3';
export const S4 = 'acme:agent:s4';
export const SHOP = 'shop.example';
export const SANDBOX_SHOP = 'sandbox-merchant.local';

export const C = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`C${i + 1}`, newId('ctr')])) as Record<string, string>;
export const R1 = newId('run');
const R2 = newId('run');
const R3 = newId('run');

const d = (s: string) => `2026-${s.length === 5 ? `${s}T00:00:00.000` : s}Z`;

function contracts(): EventEnvelope[] {
  const usd = { currency: 'USD', budget: '200' };
  return [
    ...contractLifecycle({ id: C.C1, buyer: B1, tags: ['data', 'nlp'], ...usd, seller: S1, price: '100', createdAt: d('10-12T10:00:00.000') }, [
      ['created', d('10-12T10:00:00.000')], ['awarded', d('10-12T12:00:00.000')], ['delivered', d('10-13')], ['settled', d('10-13T10:00:00.000')],
    ]),
    ...contractLifecycle({ id: C.C2, buyer: B1, tags: ['data'], ...usd, seller: S2, price: '50', createdAt: d('10-13') }, [
      ['created', d('10-13')], ['awarded', d('10-13T06:00:00.000')], ['settled', d('10-14T12:00:00.000')],
    ]),
    ...contractLifecycle({ id: C.C3, buyer: B2, tags: ['nlp', 'vision'], ...usd, seller: S1, price: '80', createdAt: d('10-14') }, [
      ['created', d('10-14')], ['awarded', d('10-14T01:00:00.000')], ['disputed', d('10-15')], ['refunded', d('10-16')],
    ]),
    ...contractLifecycle({ id: C.C4, buyer: BP, private: true, tags: ['data'], ...usd, seller: S3, price: '60', createdAt: d('10-14T08:00:00.000') }, [
      ['created', d('10-14T08:00:00.000')], ['awarded', d('10-14T09:00:00.000')], ['disputed', d('10-15')], ['split', d('10-17')],
    ]),
    ...contractLifecycle({ id: C.C5, buyer: B2, tags: ['data'], ...usd, createdAt: d('10-15') }, [['created', d('10-15')], ['cancelled', d('10-15T06:00:00.000')]]),
    ...contractLifecycle({ id: C.C6, buyer: B2, tags: ['ops'], ...usd, createdAt: d('10-05') }, [['created', d('10-05')], ['expired', d('10-12')]]),
    ...contractLifecycle({ id: C.C7, buyer: BS, sandbox: true, tags: ['data', 'sandbox-tag'], currency: 'CREDIT', budget: '10', seller: S4, price: '7', createdAt: d('10-13') }, [
      ['created', d('10-13')], ['awarded', d('10-13T01:00:00.000')], ['settled', d('10-13T05:00:00.000')],
    ]),
    ...contractLifecycle({ id: C.C8, buyer: B1, tags: ['vision'], ...usd, seller: S3, price: '30', createdAt: d('10-18') }, [
      ['created', d('10-18')], ['awarded', d('10-18T12:00:00.000')], ['settled', d('10-19')],
    ]),
    ...contractLifecycle({ id: C.C9, buyer: B1, tags: ['data'], currency: 'EUR', budget: '40', seller: S1, price: '20', createdAt: d('10-19T01:00:00.000') }, [
      ['created', d('10-19T01:00:00.000')], ['awarded', d('10-19T02:00:00.000')], ['settled', d('10-20T02:00:00.000')],
    ]),
    ...contractLifecycle({ id: C.C10, buyer: B2, tags: ['nlp'], ...usd, seller: S2, price: '10', createdAt: d('10-01') }, [
      ['created', d('10-01')], ['awarded', d('10-01T06:00:00.000')], ['settled', d('10-03')],
    ]),
    ...contractLifecycle({ id: C.C11, buyer: B2, tags: ['data'], ...usd, seller: S1, price: '5', createdAt: d('10-11T23:59:59.999') }, [
      ['created', d('10-11T23:59:59.999')], ['awarded', d('10-12')], ['delivered', d('10-12T01:00:00.000')], ['settled', d('10-12T02:00:00.000')],
    ]),
    ...contractLifecycle({ id: C.C12, buyer: BP, private: true, tags: ['misc'], ...usd, createdAt: d('10-20') }, [
      ['created', d('10-20')], ['buyer_alias_updated', d('10-20T06:00:00.000')],
    ]),
    dispute(C.C3, 'opened', d('10-15'), B2),
    dispute(C.C3, 'resolved', d('10-16'), B2),
    dispute(C.C4, 'opened', d('10-15'), BP, BP),
    dispute(C.C4, 'resolved', d('10-17'), BP, BP),
  ];
}

function governance(): EventEnvelope[] {
  return [
    integrity('state_changed', d('10-13'), 'elevated'),
    integrity('state_changed', d('10-16'), 'halted'),
    integrity('kill_switch_set', d('10-16T00:01:00.000'), 'halted', 'awards'),
    integrity('erroneous_clear', d('10-17'), 'halted', C.C2),
    integrity('state_changed', d('10-20'), 'normal'),
    resaleDecided(C.C5, d('10-18T06:00:00.000')),
    agentEvent('registered', 'acme:agent:new0', d('10-10')),
    agentEvent('registered', 'acme:agent:new1', d('10-12')),
    agentEvent('registered', 'acme:agent:new2', d('10-16')),
    agentEvent('registered', 'acme:agent:new3', d('10-19')),
    agentEvent('frozen', S2, d('10-17')),
    agentEvent('unfrozen', S2, d('10-18')),
  ];
}

function coordination(): EventEnvelope[] {
  const t1 = newId('thr');
  const t2 = newId('thr');
  const r1: RunSpec = { id: R1, owner: B2, createdAt: d('10-12T23:00:00.000'), stageStarts: [d('10-13')] };
  const r2: RunSpec = { id: R2, owner: B2, createdAt: d('10-16'), stageStarts: [d('10-16')] };
  const r3: RunSpec = { id: R3, owner: B1, createdAt: d('10-17T20:00:00.000'), stageStarts: [d('10-18'), d('10-18T12:00:00.000')] };
  return [
    thread(t1, C.C4, BP, d('10-14T10:00:00.000'), BP),
    thread(t2, C.C1, B1, d('10-12T11:00:00.000')),
    thread(newId('thr'), undefined, S2, d('10-15')),
    post(t1, BP, d('10-14T10:00:00.000'), BP),
    post(t1, S3, d('10-14T11:00:00.000'), BP),
    post(t2, S1, d('10-12T12:00:00.000')),
    post(t2, B1, d('10-13')),
    post(t1, BP, d('10-15'), BP),
    runEvent(r1, 'started', d('10-13')),
    stageEvent(R1, 'started', d('10-13')),
    taskEvent(R1, 'posted', d('10-13'), 0),
    taskEvent(R1, 'posted', d('10-13'), 1),
    taskEvent(R1, 'retried', d('10-13T06:00:00.000'), 1),
    taskEvent(R1, 'settled', d('10-13T12:00:00.000'), 0),
    taskEvent(R1, 'settled', d('10-13T12:00:00.000'), 1),
    stageEvent(R1, 'completed', d('10-13T12:00:00.000')),
    runEvent(r1, 'completed', d('10-14')),
    runEvent(r2, 'started', d('10-16')),
    runEvent(r2, 'failed', d('10-17')),
    runEvent(r3, 'started', d('10-18')),
    runEvent(r3, 'completed', d('10-19T06:00:00.000')),
  ];
}

function commerce(): EventEnvelope[] {
  const k = (id: string, spec: Omit<CheckoutSpec, 'id'>): CheckoutSpec => ({ id: `cs_${id}_${newId('cs').slice(-12)}`, ...spec });
  const k1 = k('k1', { buyer: B1, merchant: SHOP, currency: 'USD', total: '40', createdAt: d('10-13'), origin: { contractId: C.C1 } });
  const k2 = k('k2', { buyer: B2, merchant: SHOP, currency: 'USD', total: '60', createdAt: d('10-14'), origin: { contractId: C.C2, workflowRunId: R1 } });
  const k3 = k('k3', { buyer: B1, merchant: SANDBOX_SHOP, currency: 'EUR', total: '25', createdAt: d('10-15') });
  const k4 = k('k4', { buyer: B2, merchant: SANDBOX_SHOP, currency: 'USD', total: '15', createdAt: d('10-20'), origin: { contractId: C.C9 } });
  const k5 = k('k5', { buyer: B1, merchant: SHOP, currency: 'USD', total: '40', createdAt: d('10-16') });
  const k6 = k('k6', { buyer: B2, merchant: SANDBOX_SHOP, currency: 'USD', total: '9', createdAt: d('10-17') });
  const completed = (spec: CheckoutSpec, at: string) => [checkoutEvent(spec, 'completed', at), purchaseEvent(spec, at)];
  return [
    ...[k1, k2, k3, k4, k5, k6].map((spec) => checkoutEvent(spec, 'created', spec.createdAt)),
    ...completed(k1, d('10-13T00:10:00.000')),
    ...completed(k2, d('10-14T01:00:00.000')),
    ...completed(k3, d('10-15T00:30:00.000')),
    ...completed(k4, d('10-20T02:00:00.000')),
    checkoutEvent(k5, 'canceled', d('10-16T01:00:00.000')),
    checkoutEvent(k6, 'payment_failed', d('10-17T00:05:00.000')),
  ];
}

export function history(): EventEnvelope[] {
  return [...contracts(), ...governance(), ...coordination(), ...commerce()];
}
