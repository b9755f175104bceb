import { field, objectField, stringField } from './event-json';
import { typeParts, type StoreEvent } from './event';

// Which contract and listing an event concerns, so timelines and filters find it. Read from the
// payload of each type (events.proto of each service). Some events name only something filed
// earlier (a post names its thread, a delivery names its artifact): `via` is that object's id,
// and ingest takes the contract of the event that first named it.

export interface Filing {
  contractId: string | null;
  listingId: string | null;
  /** Subject id of an earlier event whose contract this event inherits when it names none. */
  via: string | null;
}

/** Whether the filing takes its contract from an earlier object (`via`), naming none of its own. */
export function inheritsContract(filing: Filing): boolean {
  return filing.contractId === null && filing.via !== null;
}

const NONE: Filing = { contractId: null, listingId: null, via: null };

function filing(contractId: string | undefined, listingId?: string, via?: string): Filing {
  return { contractId: contractId ?? null, listingId: listingId ?? null, via: via ?? null };
}

function market(entity: string, data: unknown): Filing {
  switch (entity) {
    case 'contract': {
      const c = objectField(data, 'contract');
      return filing(stringField(c, 'contractId'), stringField(c, 'listingId'));
    }
    case 'listing':
      return filing(undefined, stringField(objectField(data, 'listing'), 'listingId'));
    case 'offer':
      return filing(stringField(objectField(data, 'offer'), 'contractId'));
    case 'result':
      return filing(stringField(objectField(data, 'result'), 'contractId'));
    case 'verification':
      return filing(stringField(objectField(data, 'report'), 'contractId'));
    case 'dispute':
      return filing(stringField(objectField(data, 'dispute'), 'contractId'));
    case 'thread':
      return filing(stringField(objectField(data, 'thread'), 'contractId'));
    case 'post':
      return filing(undefined, undefined, stringField(objectField(data, 'post'), 'threadId'));
    case 'resale_review':
      return filing(stringField(objectField(data, 'review'), 'contractId'));
    default:
      return NONE;
  }
}

function wallet(entity: string, data: unknown): Filing {
  if (entity === 'receipt') return filing(stringField(objectField(data, 'receipt'), 'contractId'));
  if (entity === 'hold') {
    // The market's escrow hold carries the contract id as its reference; other holds name none.
    const hold = objectField(data, 'hold');
    return stringField(hold, 'controller') === 'market' ? filing(stringField(hold, 'reference')) : NONE;
  }
  return NONE;
}

function registry(entity: string, verb: string, data: unknown, subjectId: string): Filing {
  if (entity !== 'artifact') return NONE;
  if (verb === 'delivered' || verb === 'acked') {
    const inner = objectField(data, verb === 'delivered' ? 'receipt' : 'ack');
    return filing(undefined, undefined, stringField(inner, 'artifactRef') ?? subjectId);
  }
  return filing(stringField(objectField(data, 'artifact'), 'contractId'));
}

function commerce(entity: string, data: unknown): Filing {
  const inner = entity === 'checkout' ? objectField(data, 'session') : entity === 'purchase' ? objectField(data, 'purchase') : undefined;
  return inner ? filing(stringField(objectField(inner, 'origin'), 'contractId')) : NONE;
}

/** The contract / listing an event is filed under (both null for most non-market events). */
export function classifyEvent(event: Pick<StoreEvent, 'type' | 'data' | 'subject_id'>): Filing {
  const { service, entity, verb } = typeParts(event.type);
  switch (service) {
    case 'market':
      return market(entity, event.data);
    case 'wallet':
      return wallet(entity, event.data);
    case 'registry':
      return registry(entity, verb, event.data, event.subject_id);
    case 'workflows':
      return entity === 'task' ? filing(stringField(field(event.data, 'task'), 'contractId')) : NONE;
    case 'commerce':
      return commerce(entity, event.data);
    default:
      return NONE;
  }
}
