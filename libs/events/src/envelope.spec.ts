import { isId } from '@exchange/platform';
import { newEvent, parseEnvelope } from './envelope';

describe('newEvent', () => {
  it('builds the DESIGN §5 envelope with an evt_ id and a UTC timestamp', () => {
    const event = newEvent({ type: 'exchange.identity.agent.registered', source: 'identity', subjectId: 'agt_1', data: { a: 1 } });
    expect(isId('evt', event.id)).toBe(true);
    expect(event).toEqual({
      id: event.id,
      type: 'exchange.identity.agent.registered',
      source: 'identity',
      subject_id: 'agt_1',
      occurred_at: event.occurred_at,
      actor: null,
      data: { a: 1 },
      trace_id: null,
    });
    expect(new Date(event.occurred_at).toISOString()).toBe(event.occurred_at);
  });

  it('carries actor and trace id, and gives every event its own id', () => {
    const input = { type: 'exchange.market.contract.awarded', source: 'market', subjectId: 'ctr_1', actor: 'operator:default', traceId: 't1', data: null };
    const [a, b] = [newEvent(input), newEvent(input)];
    expect(a.actor).toBe('operator:default');
    expect(a.trace_id).toBe('t1');
    expect(a.id).not.toBe(b.id);
  });

  it('rejects a type that is not a dotted subject', () => {
    expect(() => newEvent({ type: 'exchange agent', source: 's', subjectId: 'x', data: 1 })).toThrow(/invalid event type/);
    expect(() => newEvent({ type: 'exchange.>', source: 's', subjectId: 'x', data: 1 })).toThrow(/invalid event type/);
  });
});

describe('parseEnvelope', () => {
  it('round-trips an envelope and rejects other JSON', () => {
    const event = newEvent({ type: 'exchange.a.b.c', source: 'a', subjectId: 'x', data: { n: 2 } });
    expect(parseEnvelope(JSON.stringify(event))).toEqual(event);
    expect(() => parseEnvelope('{"hello":1}')).toThrow('not an event envelope');
    expect(() => parseEnvelope('null')).toThrow('not an event envelope');
  });
});
