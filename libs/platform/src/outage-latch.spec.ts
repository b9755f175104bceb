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
