import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import * as map from './intents.mapper';
import { IntentsService } from './intents.service';

/** The CommerceService RPC of intents: proto in, proto out. */
export function intentsHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'createIntent'> {
  const s = new IntentsService({ pool: r.pool, agents: r.agents, clock: r.clock, notify: r.notify });
  return {
    createIntent: unary(logger, 'CreateIntent', async (req: commerceV1.CreateIntentRequest) => {
      const { intent, replayed } = await s.create(map.createIntentInput(req), map.actorOf(req.actor));
      return { intent: map.toProtoIntent(intent), idempotentReplayed: replayed };
    }),
  };
}
