import { atAddress, budgetKeys, clientAddresses, defaultBudget, Pacer } from './pacer';

describe('Pacer', () => {
  let t = 0;
  const pacer = () => new Pacer(() => ({ perMinute: 60, burst: 2 }), () => t);
  beforeEach(() => (t = 0));

  it('allows a burst, then one per second at 60/min', () => {
    const p = pacer();
    expect([p.tryTake(['a']), p.tryTake(['a']), p.tryTake(['a'])]).toEqual([true, true, false]);
    t = 999;
    expect(p.tryTake(['a'])).toBe(false);
    t = 1000;
    expect(p.tryTake(['a'])).toBe(true);
  });

  it('takes from all keys or none', () => {
    const p = pacer();
    expect(p.canTake(['a'])).toBe(true);
    p.tryTake(['a']);
    p.tryTake(['a']);
    expect(p.canTake(['b', 'a'])).toBe(false);
    expect(p.tryTake(['b', 'a'])).toBe(false);
    expect(p.tryTake(['b'])).toBe(true);
    expect(p.tryTake(['b'])).toBe(true);
    expect(p.tryTake(['b'])).toBe(false);
  });

  it('blocks a key until Retry-After has passed', () => {
    const p = pacer();
    p.block('a', 5);
    t = 4_999;
    expect(p.tryTake(['a'])).toBe(false);
    t = 5_001;
    expect(p.tryTake(['a'])).toBe(true);
  });
});

describe('defaultBudget', () => {
  it('stays under the gateway limits', () => {
    expect(defaultBudget('agent:x:agent:y').perMinute).toBeLessThan(120);
    expect(defaultBudget('anonymous').perMinute).toBeLessThan(300);
    expect(defaultBudget('auth-failure').perMinute).toBeLessThan(30);
    expect(defaultBudget('operator').perMinute).toBeLessThan(6000);
  });
});

describe('budgetKeys', () => {
  const both = { agent: true, anonymous: false };
  it('counts each kind where the gateway does', () => {
    expect(budgetKeys('operator', both, 'a:agent:b', false)).toEqual(['operator']);
    expect(budgetKeys('operator', both, 'a:agent:b', true)).toEqual(['operator', 'agent:a:agent:b']);
    expect(budgetKeys('agent', both, 'a:agent:b', false)).toEqual(['agent:a:agent:b']);
    expect(budgetKeys('agent', { agent: false, anonymous: false }, 'a:agent:b', false)).toEqual(['agent:a:agent:b', 'auth-failure']);
    expect(budgetKeys('none', { agent: true, anonymous: true }, 'a:agent:b', false)).toEqual(['anonymous']);
    expect(budgetKeys('none', both, 'a:agent:b', false)).toEqual(['auth-failure']);
    expect(budgetKeys('forged', both, 'a:agent:b', false)).toEqual(['auth-failure']);
  });

  it('adds the per-IP budget for public routes and requests that match no route', () => {
    expect(budgetKeys('operator', both, 'a:agent:b', false, true)).toEqual(['operator', 'anonymous']);
    expect(budgetKeys('none', { agent: false, anonymous: true }, 'a:agent:b', false, true)).toEqual(['anonymous']);
  });
});

describe('per-IP budgets', () => {
  it('binds the per-IP keys to an address, with that kind of budget', () => {
    expect(atAddress(['operator', 'anonymous', 'auth-failure'], '127.0.1.2')).toEqual(['operator', 'anonymous@127.0.1.2', 'auth-failure@127.0.1.2']);
    expect(defaultBudget('auth-failure@127.0.1.2')).toEqual(defaultBudget('auth-failure'));
    expect(clientAddresses(3)).toEqual(['127.0.1.1', '127.0.1.2', '127.0.1.3']);
  });
});
