import { idempotentConsumer, type EventBus, type EventEnvelope, type Subscription } from '@exchange/events';
import type { Logger } from '@exchange/platform';
import { registryV1, registryV1Events } from '@exchange/proto';
import type pg from 'pg';
import { fixtureIndexed } from './catalog.events';
import { FIXTURE_OBJECT_TYPE, parseFixturePayload } from './fixture';
import { insertFixture } from './fixtures.repo';
import type { Fixture } from './model';

export const FIXTURE_CONSUMER = 'market-fixtures';
export const OBJECT_STORED = 'exchange.registry.object.stored';

/**
 * The fixture index entry of an ObjectStored event: public objects of type "fixture" with a valid
 * payload; null for anything else (with the reason, for the log).
 */
export function fixtureFromEvent(event: EventEnvelope): { fixture: Fixture } | { skip: string } {
  const object = registryV1Events.ObjectStored.fromJSON(event.data).object;
  if (!object || object.type !== FIXTURE_OBJECT_TYPE) return { skip: 'not a fixture' };
  if (object.visibility !== registryV1.Visibility.VISIBILITY_PUBLIC) return { skip: 'fixture object is not public' };
  let payload: unknown;
  try {
    payload = JSON.parse(object.payloadJson);
  } catch {
    return { skip: 'payload is not JSON' };
  }
  const parsed = parseFixturePayload(payload);
  if (!parsed.ok) return { skip: `${parsed.field}: ${parsed.message}` };
  const p = parsed.fixture;
  return {
    fixture: {
      ...p,
      objectId: object.objectId,
      signerAgentId: object.signerAgentId,
      tags: object.tags,
      createdAt: object.createdAt ?? new Date(event.occurred_at),
    },
  };
}

/**
 * Indexes fixtures from the registry's object events: each event once (processed_events), the
 * index row and its exchange.market.fixture.indexed event in one transaction. The first object
 * with a fixture_id wins; a later one with the same fixture_id is ignored (logged).
 */
export function startFixtureConsumer(opts: { bus: EventBus; pool: pg.Pool; logger: Logger; notify: () => void }): Promise<Subscription> {
  const { logger } = opts;
  const handle = idempotentConsumer(opts.pool, FIXTURE_CONSUMER, async (event, client) => {
    const entry = fixtureFromEvent(event);
    if ('skip' in entry) {
      if (entry.skip !== 'not a fixture') logger.info({ event_id: event.id, object_id: event.subject_id, reason: entry.skip }, 'registry object not indexed as a fixture');
      return;
    }
    const f = entry.fixture;
    if (await insertFixture(client, f)) {
      await fixtureIndexed(client, f, event.trace_id);
      logger.info({ fixture_id: f.fixtureId, object_id: f.objectId }, 'fixture indexed');
    } else {
      logger.warn({ fixture_id: f.fixtureId, object_id: f.objectId }, 'fixture_id already indexed from another object; this object is ignored');
    }
  });
  return opts.bus.subscribe({
    durable: FIXTURE_CONSUMER,
    subjects: [OBJECT_STORED],
    handler: async (event) => {
      await handle(event);
      opts.notify();
    },
  });
}
