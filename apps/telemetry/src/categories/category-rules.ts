import { decodeCursor, errors, type CursorKey } from '@exchange/platform';
import type { CategoryKind, CategoryObjectFact } from '../domain/facts';

// Categories: the tags of contracts, listings and threads, with counts and their objects. Any
// agent or the operator reads them (the gateway always names one).

/** The market's tag rule (apps/market/src/domain/validation.ts TAG). */
export const TAG = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const CATEGORY_KINDS: readonly CategoryKind[] = ['contract', 'listing', 'thread'];

export interface Category {
  tag: string;
  objectCount: number;
  contractCount: number;
  listingCount: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** A tag and an object carrying it, as ingest files it. */
export type CategoryObject = CategoryObjectFact;

export interface CategoryReader {
  /** Empty for the operator. */
  agentId: string;
  operator: boolean;
}

/** Agents and the operator: an actor that is neither is refused. */
export function checkReader(actor: CategoryReader | undefined): void {
  if (actor?.operator) return;
  if (actor && actor.agentId !== '') return;
  throw errors.permissionDenied('forbidden', 'categories are read by an agent or the operator');
}

export function checkTag(tag: string): string {
  if (!TAG.test(tag)) throw errors.invalidArgument('validation_failed', `tag must match ${TAG.source}`, { field: 'tag' });
  return tag;
}

export function checkKind(kind: string | undefined): CategoryKind | undefined {
  if (kind === undefined || kind === '') return undefined;
  const found = CATEGORY_KINDS.find((k) => k === kind);
  if (found === undefined) throw errors.invalidArgument('validation_failed', `kind must be one of ${CATEGORY_KINDS.join(', ')}`, { field: 'kind' });
  return found;
}

// Categories are paged by tag (ascending): the shared cursor carries the tag as its id and a
// fixed time, so a cursor of another list is refused.
const TAG_CURSOR_TIME = new Date(0);

export function tagCursorKey(c: Pick<Category, 'tag'>): CursorKey {
  return { createdAt: TAG_CURSOR_TIME, id: c.tag };
}

/** The tag after which the next page starts; null for the first page. */
export function tagAfter(cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === '') return null;
  const key = decodeCursor(cursor);
  if (key.createdAt.getTime() !== TAG_CURSOR_TIME.getTime() || !TAG.test(key.id)) throw errors.invalidArgument('invalid_cursor', 'cursor is not valid');
  return key.id;
}

/** Objects are listed newest first: (first_seen_at DESC, kind:object_id DESC). */
export function objectCursorKey(o: Pick<CategoryObject, 'firstSeenAt' | 'kind' | 'objectId'>): CursorKey {
  return { createdAt: o.firstSeenAt, id: `${o.kind}:${o.objectId}` };
}

export interface ObjectKey {
  firstSeenAt: Date;
  ref: string;
}

export function objectAfter(cursor: string | undefined): ObjectKey | null {
  if (cursor === undefined || cursor === '') return null;
  const key = decodeCursor(cursor);
  const [kind] = key.id.split(':', 1);
  if (!CATEGORY_KINDS.includes(kind as CategoryKind) || key.id.length === kind.length + 1) throw errors.invalidArgument('invalid_cursor', 'cursor is not valid');
  return { firstSeenAt: key.createdAt, ref: key.id };
}

