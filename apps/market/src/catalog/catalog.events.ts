import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { canonicalize } from '@exchange/crypto';
import { marketV1Events, type marketV1Catalog } from '@exchange/proto';
import type pg from 'pg';
import { MARKET_EVENT_SOURCE } from '../events/market.events';
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

/** domain → proto, shared with the gRPC answers (catalog.mapper). */
export function toProtoFixture(f: Fixture): marketV1Catalog.Fixture {
  return {
    fixtureId: f.fixtureId,
    type: f.type,
    evidenceTier: f.evidenceTier,
    determinismClass: f.determinismClass,
    specJson: canonicalize(f.spec),
    objectId: f.objectId,
    signerAgentId: f.signerAgentId,
    tags: f.tags,
    createdAt: f.createdAt,
  };
}
