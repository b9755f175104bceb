import type { Queryable } from '@exchange/db';
import type { Span } from './span';

// SQL helpers shared by the report repositories: a span as a WHERE fragment, and counts of
// events by type within one.

/** `column` within the span; pushes its bounds to `params` (placeholders follow on). */
export function spanWhere(column: string, span: Span, params: unknown[]): string {
  const parts: string[] = [];
  if (span.from !== null) {
    params.push(span.from);
    parts.push(`${column} ${span.fromInclusive ? '>=' : '>'} $${params.length}`);
  }
  params.push(span.to);
  parts.push(`${column} ${span.toInclusive ? '<=' : '<'} $${params.length}`);
  return parts.join(' AND ');
}

/** How many events of each type (of `types`) occurred in the span; 0 for types without any. */
export async function countEventTypes(db: Queryable, types: readonly string[], span: Span): Promise<Map<string, number>> {
  const params: unknown[] = [types];
  const { rows } = await db.query<{ type: string; n: number }>(
    `SELECT type, count(*)::int AS n FROM events WHERE type = ANY($1::text[]) AND ${spanWhere('occurred_at', span, params)} GROUP BY type`,
    params,
  );
  const counts = new Map<string, number>(types.map((t) => [t, 0]));
  for (const r of rows) counts.set(r.type, r.n);
  return counts;
}
