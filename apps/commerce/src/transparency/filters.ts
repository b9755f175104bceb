import { errors } from '@exchange/platform';

// Free-text filters of the transparency reads (merchant, agent, currency): the gateway's schemas
// shape them, but a direct gRPC caller could send anything — a NUL byte would be a PostgreSQL
// error (500) instead of a 400.

const MAX = 255;
const isControl = (ch: string): boolean => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f;

/** The filter, null when absent or empty; over 255 characters or with control characters → 400 validation_failed. */
export function filterText(field: string, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (value.length > MAX || [...value].some(isControl)) throw errors.invalidArgument('validation_failed', `${field} is not a valid filter`, { field });
  return value;
}
