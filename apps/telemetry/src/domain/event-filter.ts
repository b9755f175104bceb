import { errors } from '@exchange/platform';

// The feeds' and exports' filters (EventFilter in the proto), checked once here so the SQL only
// ever sees values of a known shape. Every refusal is 400 validation_failed naming the field.

export interface EventFilterInput {
  contractId?: string;
  listingId?: string;
  eventType?: string;
  from?: Date;
  to?: Date;
}

/** A checked filter: absent fields do not filter; the type is exact or a prefix (ending in '.'). */
export interface EventQuery {
  contractId?: string;
  listingId?: string;
  type?: { exact: string } | { prefix: string };
  from?: Date;
  to?: Date;
}

// Ids of the exchange (`ctr_<uuidv7>`, `lst_…`) and of fixtures: printable ASCII, no spaces.
const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
// `exchange.market.contract.settled`; a prefix ends in `.*` (`exchange.market.contract.*`).
const TYPE_SEGMENTS = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const TYPE_MAX = 200;

function invalid(field: string, message: string): never {
  throw errors.invalidArgument('validation_failed', message, { field });
}

/** A contract or listing id as the filters and the timeline accept it. */
export function checkId(field: string, value: string): string {
  if (!ID.test(value)) invalid(field, `${field} must be 1 to 128 ASCII letters, digits or '_', '-', '.', ':' (starting with a letter or digit)`);
  return value;
}

export function parseEventType(value: string): { exact: string } | { prefix: string } {
  const message = "event_type must be a type like 'exchange.market.contract.settled' or a prefix ending in '.*' like 'exchange.market.contract.*' (lower-case ASCII, at most 200 characters)";
  if (value.length > TYPE_MAX) invalid('event_type', message);
  if (value.endsWith('.*')) {
    const head = value.slice(0, -2);
    if (!TYPE_SEGMENTS.test(head)) invalid('event_type', message);
    return { prefix: `${head}.` };
  }
  if (!TYPE_SEGMENTS.test(value)) invalid('event_type', message);
  return { exact: value };
}

function checkDate(field: string, value: Date): Date {
  if (Number.isNaN(value.getTime())) invalid(field, `${field} is not a valid timestamp`);
  return value;
}

export function parseEventFilter(input: EventFilterInput): EventQuery {
  const query: EventQuery = {};
  if (input.contractId !== undefined) query.contractId = checkId('contract_id', input.contractId);
  if (input.listingId !== undefined) query.listingId = checkId('listing_id', input.listingId);
  if (input.eventType !== undefined) query.type = parseEventType(input.eventType);
  if (input.from !== undefined) query.from = checkDate('from', input.from);
  if (input.to !== undefined) query.to = checkDate('to', input.to);
  if (query.from && query.to && query.to.getTime() <= query.from.getTime()) invalid('to', 'to must be later than from');
  return query;
}
