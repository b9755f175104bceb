import { errors, resolveLimit, toPage } from '@exchange/platform';
import type { TelemetryRuntime } from '../service/runtime';
import * as repo from './categories.repo';
import { checkKind, checkReader, checkTag, objectAfter, objectCursorKey, tagAfter, tagCursorKey, type Category, type CategoryObject, type CategoryReader } from './category-rules';

export interface PageInput {
  limit?: number;
  cursor?: string;
}

export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

/** ListCategories and ListCategoryObjects. */
export class CategoriesService {
  constructor(private readonly deps: Pick<TelemetryRuntime, 'pool'>) {}

  async list(actor: CategoryReader | undefined, page: PageInput): Promise<Paged<Category>> {
    checkReader(actor);
    const limit = resolveLimit(page.limit);
    const rows = await repo.listCategories(this.deps.pool, tagAfter(page.cursor), limit + 1);
    const { data, nextCursor } = toPage(rows, limit, tagCursorKey);
    return { items: data, nextCursor };
  }

  async objects(actor: CategoryReader | undefined, tag: string, kind: string | undefined, page: PageInput): Promise<{ category: Category } & Paged<CategoryObject>> {
    checkReader(actor);
    checkTag(tag);
    const onlyKind = checkKind(kind);
    const limit = resolveLimit(page.limit);
    const after = objectAfter(page.cursor);
    const category = await repo.getCategory(this.deps.pool, tag);
    if (category === null) throw errors.notFound('category', tag);
    const rows = await repo.listCategoryObjects(this.deps.pool, tag, onlyKind, after, limit + 1);
    const { data, nextCursor } = toPage(rows, limit, objectCursorKey);
    return { category, items: data, nextCursor };
  }
}
