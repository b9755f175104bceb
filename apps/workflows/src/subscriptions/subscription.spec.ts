import { DomainError } from '@exchange/platform';
import { consumeRequest, listLimit, nextAckFloor, OPERATOR_OWNER, ownerOf, runOwnerFor, validateCreate, type CreateSubscriptionInput } from './subscription';

const base: CreateSubscriptionInput = { eventTypes: [], leaseSeconds: 0, idempotencyKey: '' };

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('ownerOf', () => {
  it('should be the acting agent, even when the operator acts for it', () => {
    expect(ownerOf({ agentId: 'a:agent:b', operator: false })).toBe('a:agent:b');
    expect(ownerOf({ agentId: 'a:agent:b', operator: true })).toBe('a:agent:b');
  });

  it('should be "operator" for the operator on its own, and refuse a caller that is neither', () => {
    expect(ownerOf({ agentId: null, operator: true })).toBe(OPERATOR_OWNER);
    expect(codeOf(() => ownerOf({ agentId: null, operator: false }))).toBe('validation_failed');
  });

  it('should scope runs to the agent, not the operator', () => {
    expect(runOwnerFor('a:agent:b')).toBe('a:agent:b');
    expect(runOwnerFor(OPERATOR_OWNER)).toBeNull();
  });
});

describe('validateCreate', () => {
  it('should default the lease to 30 s and keep no filters', () => {
    const v = validateCreate(base);
    expect(v).toMatchObject({ leaseSeconds: 30, idempotencyKey: null, filters: { workflowRunId: null, stage: null, eventTypes: [] } });
  });

  it('should accept leases of 5 to 3600 s and refuse the rest', () => {
    expect(validateCreate({ ...base, leaseSeconds: 5 }).leaseSeconds).toBe(5);
    expect(validateCreate({ ...base, leaseSeconds: 3600 }).leaseSeconds).toBe(3600);
    for (const bad of [4, 3601, -1]) expect(codeOf(() => validateCreate({ ...base, leaseSeconds: bad }))).toBe('validation_failed');
  });

  it('should refuse an unknown event type, naming it', () => {
    try {
      validateCreate({ ...base, eventTypes: ['task.settled', 'task.exploded'] });
      throw new Error('expected a failure');
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('validation_failed');
      expect((err as DomainError).message).toContain('task.exploded');
      expect((err as DomainError).details).toMatchObject({ field: 'filters.event_types', value: 'task.exploded' });
    }
  });

  it('should refuse a stage outside 1–64 characters and an empty run id', () => {
    expect(validateCreate({ ...base, stage: 'x'.repeat(64) }).filters.stage).toHaveLength(64);
    expect(codeOf(() => validateCreate({ ...base, stage: '' }))).toBe('validation_failed');
    expect(codeOf(() => validateCreate({ ...base, stage: 'x'.repeat(65) }))).toBe('validation_failed');
    expect(codeOf(() => validateCreate({ ...base, workflowRunId: '' }))).toBe('validation_failed');
  });

  it('should hash the same request the same way whatever the order of the types', () => {
    const a = validateCreate({ ...base, eventTypes: ['task.settled', 'run.failed', 'task.settled'], idempotencyKey: 'k' });
    const b = validateCreate({ ...base, eventTypes: ['run.failed', 'task.settled'], leaseSeconds: 30, idempotencyKey: 'k' });
    expect(a.filters.eventTypes).toEqual(['run.failed', 'task.settled']);
    expect(a.requestHash).toBe(b.requestHash);
    expect(validateCreate({ ...base, leaseSeconds: 31 }).requestHash).not.toBe(validateCreate(base).requestHash);
  });
});

describe('listLimit', () => {
  it('should default to 50 and allow 1–200', () => {
    expect(listLimit(0)).toBe(50);
    expect(listLimit(1)).toBe(1);
    expect(listLimit(200)).toBe(200);
    expect(codeOf(() => listLimit(201))).toBe('invalid_limit');
    expect(codeOf(() => listLimit(-3))).toBe('invalid_limit');
  });
});

describe('consumeRequest', () => {
  it('should take exactly one of event_ids and up_to', () => {
    expect(consumeRequest(['e1', 'e2', 'e1'], undefined)).toEqual({ kind: 'ids', eventIds: ['e1', 'e2'] });
    expect(consumeRequest([], 'e9')).toEqual({ kind: 'up_to', eventId: 'e9' });
    expect(codeOf(() => consumeRequest([], undefined))).toBe('validation_failed');
    expect(codeOf(() => consumeRequest(['e1'], 'e2'))).toBe('validation_failed');
    expect(codeOf(() => consumeRequest([], ''))).toBe('validation_failed');
  });

  it('should take at most 500 ids', () => {
    const ids = Array.from({ length: 501 }, (_, i) => `e${i}`);
    expect(codeOf(() => consumeRequest(ids, undefined))).toBe('validation_failed');
    expect(consumeRequest(ids.slice(0, 500), undefined)).toMatchObject({ kind: 'ids' });
  });
});

describe('nextAckFloor', () => {
  it('should stop just below the lowest unacknowledged event', () => {
    expect(nextAckFloor(0n, 4n, 10n)).toBe(3n);
  });

  it('should reach the highest matching event when none is left unacknowledged', () => {
    expect(nextAckFloor(3n, null, 10n)).toBe(10n);
  });

  it('should stay where it is when nothing matches above it, and never move back', () => {
    expect(nextAckFloor(7n, null, null)).toBe(7n);
    expect(nextAckFloor(7n, 8n, 12n)).toBe(7n);
  });
});
