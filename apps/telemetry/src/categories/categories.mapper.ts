import type { commonV1, telemetryV1 } from '@exchange/proto';
import type { Category, CategoryObject, CategoryReader } from './category-rules';
import type { PageInput } from './categories.service';

export function readerOf(actor: telemetryV1.Actor | undefined): CategoryReader | undefined {
  return actor === undefined ? undefined : { agentId: actor.agentId, operator: actor.operator };
}

export function pageOf(page: commonV1.PageRequest | undefined): PageInput {
  return { limit: page?.limit, cursor: page?.cursor };
}

export function toPageInfo(nextCursor: string | null): commonV1.PageInfo {
  return { nextCursor: nextCursor ?? '' };
}

export function toProtoCategory(c: Category): telemetryV1.Category {
  return {
    tag: c.tag,
    objectCount: String(c.objectCount),
    contractCount: String(c.contractCount),
    listingCount: String(c.listingCount),
    firstSeenAt: c.firstSeenAt,
    lastSeenAt: c.lastSeenAt,
  };
}

export function toProtoCategoryObject(o: CategoryObject): telemetryV1.CategoryObject {
  return { tag: o.tag, kind: o.kind, objectId: o.objectId, title: o.title, sandbox: o.sandbox, firstSeenAt: o.firstSeenAt };
}
