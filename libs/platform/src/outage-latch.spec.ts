import { OutageLatch } from './outage-latch';

describe('OutageLatch', () => {
  it('reports each outage once when it starts and once when it ends', () => {
    const events: string[] = [];
    const latch = new OutageLatch((err) => events.push(`down ${String(err)}`), () => events.push('up'));
    latch.ok();
    expect(events).toEqual([]);
    latch.fail('a');
    latch.fail('b');
    expect(events).toEqual(['down a']);
    latch.ok();
    latch.ok();
    latch.fail('c');
    expect(events).toEqual(['down a', 'up', 'down c']);
  });
});

describe('OutageLatch with numbered attempts', () => {
  it('lets only a call begun after the outage was noticed end it', () => {
    const events: string[] = [];
    const latch = new OutageLatch((err) => events.push(`down ${String(err)}`), () => events.push('up'));
    const early = latch.attempt(); // sent before the outage, answered late
    const failing = latch.attempt();
    latch.fail('refused');
    latch.ok(early);
    latch.ok(failing); // begun before the failure was seen too
    expect(events).toEqual(['down refused']);
    const later = latch.attempt();
    latch.ok(later);
    expect(events).toEqual(['down refused', 'up']);
    // A failure while failing moves nothing: a call numbered after the first failure ends it.
    latch.fail('x');
    const afterFirst = latch.attempt();
    latch.fail('y');
    latch.ok(afterFirst);
    expect(events).toEqual(['down refused', 'up', 'down x', 'up']);
    // Unnumbered successes keep ending an outage at once.
    latch.fail('again');
    latch.ok();
    expect(events).toEqual(['down refused', 'up', 'down x', 'up', 'down again', 'up']);
  });
});
