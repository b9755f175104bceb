import { errors, serverStream } from '@exchange/platform';
import { telemetryV1 } from '@exchange/proto';
import { CallLog, startProtoFake, testLogger, type ProtoFake } from '@exchange/testing';
import type { ServerWritableStream } from '@grpc/grpc-js';
import { startHarness, TestAgent, uniqueAgentId, registerAgent, type Harness } from './harness';

// A telemetry fake for the gateway's Telemetry specs: unary answers built from the proto shapes,
// and the two exports as real server streams whose chunks, failure point and back-pressure a
// spec controls (`exportPlan`).

const TL = telemetryV1;
export const T0 = new Date('2026-11-25T10:00:00.000Z');
export const CTR = 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';

export function operatorEvent(seq: number, over: Partial<telemetryV1.OperatorEvent> = {}): telemetryV1.OperatorEvent {
  return {
    eventId: `evt_${seq}`,
    type: 'exchange.market.contract.created',
    source: 'market',
    subjectId: CTR,
    occurredAt: T0,
    actor: 'acme:agent:buyer-1',
    dataJson: JSON.stringify({ contract_id: CTR, buyer_id: 'acme:agent:buyer-1' }),
    traceId: `req-${seq}`,
    contractId: CTR,
    listingId: undefined,
    seq: String(seq),
    recordedAt: T0,
    ...over,
  };
}

/** One JSONL line as telemetry writes it (the operator event's REST keys). */
export const jsonlLine = (seq: number) => `${JSON.stringify({ id: `evt_${seq}`, type: 'exchange.market.contract.created', seq: String(seq) })}\n`;

export interface ExportPlan {
  /** Chunks to send (each a Buffer of whole lines). */
  chunks: Buffer[];
  /** Fail before any chunk with this error. */
  failFirst?: Error;
  /** Fail after this many chunks. */
  failAfter?: number;
  /** Called once when grpc-js's buffer is full (the reader stopped reading), with the chunks written so far. */
  onBlocked?: (written: number) => void;
  /** Called when the stream ended or was cancelled, with the chunks written. */
  onDone?: (written: number, cancelled: boolean) => void;
}

export interface FakeTelemetry extends ProtoFake {
  exportPlan: ExportPlan;
}

export async function startFakeTelemetry(): Promise<FakeTelemetry> {
  const log = new CallLog();
  const fake = { exportPlan: { chunks: [] } } as unknown as FakeTelemetry;

  const exportRun = (method: string) =>
    serverStream(testLogger, method, async (call: ServerWritableStream<{ actor?: telemetryV1.Actor }, { jsonl: Buffer }>) => {
      log.record(method, call.request, call.metadata);
      const plan = fake.exportPlan;
      if (call.request.actor?.operator !== true) throw errors.permissionDenied('operator_required', 'operator only');
      if (plan.failFirst) throw plan.failFirst;
      let written = 0;
      let blocked = false;
      try {
        for (const chunk of plan.chunks) {
          if (plan.failAfter !== undefined && written === plan.failAfter) throw errors.unavailable('unavailable', 'event store went away');
          if (call.cancelled) return;
          if (!call.write({ jsonl: chunk })) {
            if (!blocked) plan.onBlocked?.(written + 1);
            blocked = true;
            await new Promise<void>((resolve) => {
              const done = () => {
                call.off('drain', done);
                call.off('cancelled', done);
                resolve();
              };
              call.once('drain', done);
              call.once('cancelled', done);
            });
          }
          written++;
        }
      } finally {
        plan.onDone?.(written, call.cancelled);
      }
    });

  const proto = await startProtoFake(
    TL.TelemetryServiceService,
    {
      recordMatchingSignal: (req) => ({
        signal: {
          signalId: 'sig_1',
          signal: req.signal,
          recordedBy: req.actor?.agentId ?? '',
          contractId: req.contractId,
          sellerId: req.sellerId,
          listingId: req.listingId,
          requestId: req.requestId,
          occurredAt: req.occurredAt ?? T0,
          recordedAt: T0,
        },
        duplicate: req.requestId === 'seen-before',
      }),
      listCategories: () => ({
        categories: [{ tag: 'translation', objectCount: '3', contractCount: '2', listingCount: '1', firstSeenAt: T0, lastSeenAt: T0 }],
        page: { nextCursor: 'c2' },
      }),
      listCategoryObjects: (req) => {
        if (req.tag === 'nothing') throw errors.notFound('category', req.tag);
        return {
          category: { tag: req.tag, objectCount: '1', contractCount: '1', listingCount: '0', firstSeenAt: T0, lastSeenAt: T0 },
          objects: [{ tag: req.tag, kind: 'contract', objectId: CTR, title: 'Translate', sandbox: true, firstSeenAt: T0 }],
          page: { nextCursor: '' },
        };
      },
      listPublicEvents: () => ({
        events: [{ eventId: 'evt_1', type: 'exchange.market.contract.created', subjectId: CTR, occurredAt: T0, contractId: CTR, dataJson: '{"buyer_alias":"anon:abcdefghijkl"}', seq: '1' }],
        page: { nextCursor: '' },
      }),
      listOperatorEvents: () => ({ events: [operatorEvent(1), operatorEvent(2, { actor: undefined, traceId: undefined, listingId: 'lst_1' })], page: { nextCursor: 'next' } }),
      getContractTimeline: (req) => {
        if (req.contractId !== CTR) throw errors.notFound('contract', req.contractId);
        return { contractId: CTR, events: [operatorEvent(1)], page: { nextCursor: '' } };
      },
      getWeeklyReport: (req) => ({
        report: {
          weekStart: req.weekStart ?? '2026-11-16',
          weekEnd: '2026-11-23',
          contracts: { created: '4', awarded: '3', delivered: '3', settled: '2', disputed: '1', refunded: '0', split: '0', cancelled: '1', expired: '0' },
          settledVolume: [{ amount: '90', currency: 'CREDIT' }],
          medianTimeToSettleMs: '5400000',
          agentsRegistered: '6',
          activeBuyers: '2',
          activeSellers: '2',
          checkoutsCreated: '1',
          purchases: '1',
          purchaseVolume: [],
          workflowRunsStarted: '0',
          workflowRunsCompleted: '0',
          workflowRunsFailed: '0',
          topTags: [{ tag: 'translation', count: '3' }],
          matchingSignals: { impressions: '12', clicks: '4', shortlists: '2', awards: '1' },
          eventsRecorded: '87',
          includeSandbox: req.includeSandbox,
        },
      }),
      getMarketIntegrityRollup: (req) => ({
        rollup: {
          window: { window: req.query?.window ?? '', from: new Date(T0.getTime() - 7 * 86_400_000), asOf: req.query?.asOf ?? T0 },
          state: 'normal',
          stateChanges: '2', killSwitchesSet: '1', erroneousClears: '0', disputesOpened: '1', disputesResolved: '1', refunds: '0', splits: '1',
          buyerAliasUpdates: '0', resaleReviewsDecided: '0', agentsFrozen: '0', agentsUnfrozen: '0',
          disputeRate: undefined,
        },
      }),
      getOutcomeMetrics: (req) => ({
        metrics: {
          window: { window: req.query?.window ?? '', from: undefined, asOf: T0 },
          merchantId: req.merchantId,
          agentId: req.agentId,
          contracts: req.merchantId
            ? undefined
            : { terminal: '4', settled: '3', refunded: '0', split: '0', cancelled: '1', expired: '0', disputed: '1', successRate: 0.75, refundRate: 0, disputeRate: 0.25, medianTimeToSettleMs: '5400000', p90TimeToSettleMs: undefined },
          commerce: { ended: '0', completed: '0', canceled: '0', failed: '0', successRate: undefined, medianTimeToCompleteMs: undefined, volume: [] },
        },
      }),
      exportOperatorEvents: exportRun('exportOperatorEvents'),
      exportContractTimeline: exportRun('exportContractTimeline'),
    },
    { log },
  );
  return Object.assign(fake, proto);
}

/** A harness with the telemetry fake and one registered agent. */
export function useTelemetryHarness(ready: (h: Harness, fake: FakeTelemetry, agent: TestAgent) => void): void {
  let h: Harness | undefined;
  let fake: FakeTelemetry | undefined;
  beforeAll(async () => {
    fake = await startFakeTelemetry();
    h = await startHarness({ telemetry: fake });
    const agent = new TestAgent(uniqueAgentId('watcher'));
    await registerAgent(h.app, agent);
    ready(h, fake, agent);
  });
  afterAll(async () => {
    await h?.close();
    await fake?.stop();
  });
}
