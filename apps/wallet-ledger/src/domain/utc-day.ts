/** The UTC calendar day of `at` as "YYYY-MM-DD" (the key of daily caps and limits). */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The next UTC midnight strictly after `at`: when today's caps and limits reset. */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}
