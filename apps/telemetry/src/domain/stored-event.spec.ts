import { DomainError, encodeCursor } from '@exchange/platform';
import { eventCursorKey, eventKeyOf, operatorEventLine, type OperatorEvent } from './stored-event';

const event: OperatorEvent = {
  seq: '42',
  eventId: 'evt_1',
  type: 'exchange.market.contract.created',
  source: 'market',
  subjectId: 'ctr_1',
  occurredAt: new Date('2026-11-25T09:00:00.123Z'),
  actor: null,
  dataJson: '{"contract": {"title": "a \\"quoted\\" line\\nbreak"}}',
  traceId: 't1',
  contractId: 'ctr_1',
  listingId: null,
  recordedAt: new Date('2026-11-25T09:00:01.000Z'),
};

describe('operatorEventLine', () => {
  it('is one JSON object on one line, snake_case envelope, data as stored', () => {
    const line = operatorEventLine(event);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      id: 'evt_1',
      type: 'exchange.market.contract.created',
      source: 'market',
      subject_id: 'ctr_1',
      occurred_at: '2026-11-25T09:00:00.123Z',
      actor: null,
      data: { contract: { title: 'a "quoted" line\nbreak' } },
      trace_id: 't1',
      contract_id: 'ctr_1',
      listing_id: null,
      seq: '42',
      recorded_at: '2026-11-25T09:00:01.000Z',
    });
  });
});

describe('event cursors', () => {
  it('round-trip the last event of a page', () => {
    expect(eventKeyOf(encodeCursor(eventCursorKey(event)))).toEqual({ occurredAt: event.occurredAt, seq: '42' });
    expect(eventKeyOf(undefined)).toBeNull();
    expect(eventKeyOf('')).toBeNull();
  });

  it.each(['x', encodeCursor({ createdAt: new Date(0), id: 'ctr_1' }), encodeCursor({ createdAt: new Date(0), id: '0' }), encodeCursor({ createdAt: new Date(0), id: '99999999999999999999' })])(
    'refuses %j as invalid_cursor',
    (cursor) => {
      expect(() => eventKeyOf(cursor)).toThrow(DomainError);
      try {
        eventKeyOf(cursor);
      } catch (err) {
        expect((err as DomainError).code).toBe('invalid_cursor');
      }
    },
  );
});
