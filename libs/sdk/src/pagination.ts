// The page shape of every list route (DESIGN §3) and a helper that walks all pages.

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface PageParams {
  limit?: number;
  cursor?: string;
}

/** Yields every item, requesting the next page with the previous page's `next_cursor` until null. */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, startCursor?: string): AsyncGenerator<T, void, undefined> {
  let cursor = startCursor;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    if (page.next_cursor === null || page.next_cursor === undefined || page.next_cursor === '') return;
    cursor = page.next_cursor;
  }
}
