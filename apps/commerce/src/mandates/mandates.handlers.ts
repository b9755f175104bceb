import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import * as map from './mandates.mapper';
import { settableStatus } from './mandate-status';
import { MandatesService } from './mandates.service';

type MandateRpcs = 'createMandate' | 'getMandate' | 'listMandates' | 'getAutonomy' | 'putAutonomy' | 'setMandateStatus';

/** The CommerceService RPCs of mandates: proto in, proto out. */
export function mandatesHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, MandateRpcs> {
  const s = new MandatesService({ pool: r.pool, agents: r.agents, clock: r.clock, notify: r.notify });
  const now = r.clock;
  return {
    createMandate: unary(logger, 'CreateMandate', async (req: commerceV1.CreateMandateRequest) => {
      const { mandate, replayed } = await s.create(map.createMandateInput(req), map.actorOf(req.actor));
      return { mandate: map.toProtoMandate(mandate, now()), idempotentReplayed: replayed };
    }),
    getMandate: unary(logger, 'GetMandate', async (req: commerceV1.GetMandateRequest) => ({
      mandate: map.toProtoMandate(await s.get(req.mandateId, map.actorOf(req.actor)), now()),
    })),
    listMandates: unary(logger, 'ListMandates', async (req: commerceV1.ListMandatesRequest) => {
      const input = { signerAgentId: req.signerAgentId || undefined, status: map.statusFilter(req.status), limit: req.page?.limit ?? 0, cursor: req.page?.cursor ?? '' };
      const page = await s.list(input, map.actorOf(req.actor));
      const at = now();
      return { mandates: page.data.map((m) => map.toProtoMandate(m, at)), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    getAutonomy: unary(logger, 'GetAutonomy', async (req: commerceV1.GetAutonomyRequest) => {
      const m = await s.get(req.mandateId, map.actorOf(req.actor));
      return { mandateId: m.mandateId, autonomy: map.toProtoAutonomy(m.autonomy) };
    }),
    putAutonomy: unary(logger, 'PutAutonomy', async (req: commerceV1.PutAutonomyRequest) => {
      const m = await s.putAutonomy(req.mandateId, map.autonomyInput(req.autonomy), map.actorOf(req.actor));
      return { mandateId: m.mandateId, autonomy: map.toProtoAutonomy(m.autonomy) };
    }),
    setMandateStatus: unary(logger, 'SetMandateStatus', async (req: commerceV1.SetMandateStatusRequest) => {
      const m = await s.setStatus(req.mandateId, settableStatus(map.statusFilter(req.status)), map.actorOf(req.actor));
      return { mandate: map.toProtoMandate(m, now()) };
    }),
  };
}
