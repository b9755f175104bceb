import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import * as map from './cases.mapper';
import { CasesService } from './cases.service';

type CaseRpcs = 'createCase' | 'getCase' | 'updateCase' | 'listCaseEvents';

/** The CommerceService RPCs of post-purchase cases: proto in, proto out. */
export function casesHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, CaseRpcs> {
  const s = new CasesService({ pool: r.pool, wallet: r.wallet, clock: r.clock, logger: r.logger, notify: r.notify });
  return {
    createCase: unary(logger, 'CreateCase', async (req: commerceV1.CreateCaseRequest) => {
      const res = await s.create(map.createCaseInput(req), map.actorOf(req.actor));
      return { case: map.toProtoCase(res.case), idempotentReplayed: res.replayed };
    }),
    getCase: unary(logger, 'GetCase', async (req: commerceV1.GetCaseRequest) => ({ case: map.toProtoCase(await s.get(req.caseId, map.actorOf(req.actor))) })),
    updateCase: unary(logger, 'UpdateCase', async (req: commerceV1.UpdateCaseRequest) => {
      const res = await s.update(map.updateCaseInput(req), map.actorOf(req.actor));
      return { case: map.toProtoCase(res.case), refundReceiptJson: res.refundReceipt === null ? undefined : JSON.stringify(res.refundReceipt) };
    }),
    listCaseEvents: unary(logger, 'ListCaseEvents', async (req: commerceV1.ListCaseEventsRequest) => {
      const page = await s.listEvents(req.caseId, map.actorOf(req.actor), req.page?.limit ?? 0, req.page?.cursor ?? '');
      return { events: page.data.map(map.toProtoCaseEvent), page: { nextCursor: page.nextCursor ?? '' } };
    }),
  };
}
