import { DomainError } from '@exchange/platform';
import { checkId, parseEventFilter, parseEventType } from './event-filter';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return `${err.code}:${String(err.details?.['field'])}`;
    throw err;
  }
  return 'accepted';
}

describe('event filter', () => {
  it('keeps what is given; nothing given filters nothing', () => {
    expect(parseEventFilter({})).toEqual({});
    const from = new Date('2026-11-01T00:00:00.000Z');
    const to = new Date('2026-11-02T00:00:00.000Z');
    expect(parseEventFilter({ contractId: 'ctr_0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', listingId: 'lst_1', eventType: 'exchange.market.contract.settled', from, to })).toEqual({
      contractId: 'ctr_0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      listingId: 'lst_1',
      type: { exact: 'exchange.market.contract.settled' },
      from,
      to,
    });
  });

  it('reads a type ending in .* as a prefix that keeps its dot', () => {
    expect(parseEventType('exchange.market.contract.*')).toEqual({ prefix: 'exchange.market.contract.' });
    expect(parseEventType('exchange.*')).toEqual({ prefix: 'exchange.' });
    expect(parseEventType('exchange.market.contract.buyer_alias_updated')).toEqual({ exact: 'exchange.market.contract.buyer_alias_updated' });
  });

  it.each([
    ['*'],
    ['.*'],
    ['exchange.market.*.settled'],
    ['exchange.market.contract*'],
    ['Exchange.market'],
    ['exchange..market'],
    ['exchange.market.'],
    ['exchange.märket'],
    ["exchange.market'; drop table events"],
    ['x'.repeat(201)],
    [''],
  ])('refuses the event type %j', (type) => {
    expect(refusal(() => parseEventFilter({ eventType: type }))).toBe('validation_failed:event_type');
  });

  it('refuses ids that are not short printable ASCII', () => {
    expect(refusal(() => checkId('contract_id', ''))).toBe('validation_failed:contract_id');
    expect(refusal(() => checkId('contract_id', 'ctr 1'))).toBe('validation_failed:contract_id');
    expect(refusal(() => checkId('contract_id', 'ctr_é'))).toBe('validation_failed:contract_id');
    expect(refusal(() => checkId('contract_id', `c${'a'.repeat(128)}`))).toBe('validation_failed:contract_id');
    expect(refusal(() => parseEventFilter({ listingId: '%' }))).toBe('validation_failed:listing_id');
    expect(checkId('contract_id', `c${'a'.repeat(127)}`)).toHaveLength(128);
  });

  it('wants to later than from', () => {
    const at = new Date('2026-11-01T00:00:00.000Z');
    expect(refusal(() => parseEventFilter({ from: at, to: at }))).toBe('validation_failed:to');
    expect(refusal(() => parseEventFilter({ from: at, to: new Date(at.getTime() - 1) }))).toBe('validation_failed:to');
    expect(refusal(() => parseEventFilter({ from: new Date(Number.NaN) }))).toBe('validation_failed:from');
    expect(parseEventFilter({ to: at })).toEqual({ to: at });
  });
});
