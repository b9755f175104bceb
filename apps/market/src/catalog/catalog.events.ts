import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { marketV1Events } from '@exchange/proto';
import type pg from 'pg';
import { MARKET_EVENT_SOURCE } from '../events/market.events';
import { toProtoFixture } from './catalog.mapper';
import type { Fixture } from './model';

export const FIXTURE_INDEXER = 'system:market-fixtures';

/** exchange.market.fixture.indexed, in the transaction that indexed the fixture. */
export async function fixtureIndexed(client: pg.ClientBase, f: Fixture, traceId: string | null): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({
      type: 'exchange.market.fixture.indexed',
      source: MARKET_EVENT_SOURCE,
      subjectId: f.fixtureId,
      actor: FIXTURE_INDEXER,
      traceId,
      data: marketV1Events.FixtureIndexed.toJSON({ fixture: toProtoFixture(f) }),
    }),
  );
}
