import { errors, type CallContext } from '@exchange/platform';
import { marketV1, marketV1Coordination, marketV1Integrity } from '@exchange/proto';

// The fake market's state and the helpers its handlers share (fake-market-*.ts): stores by id,
// ids and clocks, idempotency replay like the real service (same caller + key + payload → stored
// answer with idempotent_replayed; other payload → idempotency_key_reused), NOT_FOUND for unknown
// ids, and the state of the issue-6 services (integrity snapshot, audit, threads, reviews).

const I = marketV1Integrity;
const M = marketV1;
export const SWITCHES = ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'];
export const T = new Date('2026-11-21T18:00:00.000Z');

export interface Part2State {
  snapshot: marketV1Integrity.IntegritySnapshot;
  audit: marketV1Integrity.IntegrityAuditEntry[];
  threads: Map<string, marketV1Coordination.Thread>;
  posts: marketV1Coordination.Post[];
  reviews: Map<string, marketV1.ResaleReview>;
}

export function initialSnapshot(): marketV1Integrity.IntegritySnapshot {
  return {
    state: I.IntegrityState.INTEGRITY_STATE_NORMAL,
    since: T,
    killSwitches: SWITCHES.map((name) => ({ name, enabled: false })),
    walletControlsSynced: true,
  };
}

export type MarketKit = ReturnType<typeof createMarketKit>;

export function createMarketKit() {
  const contracts = new Map<string, marketV1.Contract>();
  const listings = new Map<string, marketV1.Listing>();
  const offers = new Map<string, marketV1.Offer>();
  const results = new Map<string, marketV1.Result>();
  const disputes = new Map<string, marketV1.Dispute>();
  const reports = new Map<string, marketV1.VerificationReport>(); // by contract
  const verifiers: marketV1.Verifier[] = [];
  const verifierListings: marketV1.VerifierListing[] = [];
  const outcomes = new Map<string, { fingerprint: string; response: Record<string, unknown> }>();
  let seq = 0;
  const id = (prefix: string) => `${prefix}_fake-${++seq}`;
  const now = () => new Date(1_790_000_000_000 + seq * 1000);
  const party = (value: string, ctx: CallContext) => value || ctx.agentId || '';

  const idempotent = <Req extends { idempotencyKey: string }, Res extends Record<string, unknown>>(
    method: string,
    req: Req,
    ctx: CallContext,
    effect: () => Res,
  ): Res => {
    if (req.idempotencyKey === '') return effect();
    const { idempotencyKey, ...payload } = req;
    const fingerprint = JSON.stringify(payload);
    const scope = `${ctx.actor}|${ctx.agentId ?? ''}|${method}|${idempotencyKey}`;
    const stored = outcomes.get(scope);
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was used with a different request');
      }
      return { ...(stored.response as Res), idempotentReplayed: true };
    }
    const response = effect();
    outcomes.set(scope, { fingerprint, response });
    return response;
  };

  const find = <T>(map: Map<string, T>, entity: string, key: string): T => {
    const value = map.get(key);
    if (!value) throw errors.notFound(entity, key);
    return value;
  };
  const update = <T extends { updatedAt: Date | undefined }>(map: Map<string, T>, key: string, value: T, over: Partial<T>): T => {
    const next = { ...value, ...over, updatedAt: now() };
    map.set(key, next);
    return next;
  };
  const pageOf = <T>(rows: T[]) => ({ rows, page: { nextCursor: rows.length > 1 ? 'fake-cursor' : '' } });
  const page = (rows: unknown[]) => ({ nextCursor: rows.length > 1 ? 'fake-cursor' : '' });
  const state: Part2State = {
    snapshot: initialSnapshot(),
    audit: [],
    threads: new Map(),
    posts: [],
    reviews: new Map([
      [
        'rld_fake-pending',
        {
          decisionRef: 'rld_fake-pending',
          contractId: 'ctr_fake-resale',
          resaleOf: 'ctr_fake-parent',
          rootContractId: 'ctr_fake-parent',
          depth: 1,
          lineage: ['ctr_fake-parent'],
          status: M.ResaleReviewStatus.RESALE_REVIEW_STATUS_PENDING,
          createdAt: T,
          updatedAt: T,
        },
      ],
    ]),
  };

  return { contracts, listings, offers, results, disputes, reports, verifiers, verifierListings, state, id, now, party, idempotent, find, update, pageOf, page };
}
