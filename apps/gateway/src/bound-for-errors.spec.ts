import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { boundForErrors } from './bound-for-errors';

const Body = Type.Object(
  {
    merchants: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 3 })),
    lines: Type.Optional(Type.Array(Type.Object({ tags: Type.Array(Type.String(), { maxItems: 2 }) }), { maxItems: 5 })),
    name: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

describe('boundForErrors', () => {
  it('should keep at most 8 unknown keys of a closed object, and every known one', () => {
    const sent: Record<string, unknown> = { name: 'n' };
    for (let i = 0; i < 60_000; i++) sent[`k${i}`] = 1;
    const bounded = boundForErrors(Body, sent) as Record<string, unknown>;
    expect(Object.keys(bounded)).toEqual(['name', 'k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
    expect(Object.keys(sent)).toHaveLength(60_001);
    const checker = Compile(Body);
    expect(checker.Errors(bounded).map((e) => e.instancePath)).toContain('/k0');
  });

  it('should keep a "__proto__" key as a key when it cuts (JSON.parse makes it an own property)', () => {
    const sent = JSON.parse(`{"__proto__":{"polluted":true},${Array.from({ length: 20 }, (_, i) => `"k${i}":1`).join(',')}}`) as Record<string, unknown>;
    const bounded = boundForErrors(Body, sent) as Record<string, unknown>;
    expect(Object.keys(bounded)).toEqual(['__proto__', 'k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
    expect(Object.getPrototypeOf(bounded)).toBe(Object.prototype);
    expect(Compile(Body).Errors(bounded).map((e) => e.instancePath)).toContain('/__proto__');
  });

  it('should cut an array past its maxItems to maxItems + 1 items, nested ones too, leaving the input as it was', () => {
    const sent = { merchants: Array.from({ length: 120_000 }, () => 'a'), lines: [{ tags: ['x', 'y', 'z', 'w'] }], name: 'n' };
    const bounded = boundForErrors(Body, sent) as typeof sent;
    expect(bounded.merchants).toHaveLength(4);
    expect(bounded.lines[0].tags).toEqual(['x', 'y', 'z']);
    expect(bounded.name).toBe('n');
    expect(sent.merchants).toHaveLength(120_000);
    expect(sent.lines[0].tags).toHaveLength(4);
  });

  it('should give the same first errors as the whole value, and return a value within bounds unchanged (same object)', () => {
    const checker = Compile(Body);
    const sent = { merchants: ['', ...Array.from({ length: 50 }, () => 'a')] };
    const whole = checker.Errors(sent).map((e) => [e.instancePath, e.message]);
    const bounded = checker.Errors(boundForErrors(Body, sent)).map((e) => [e.instancePath, e.message]);
    expect(bounded).toEqual(expect.arrayContaining([['/merchants', whole.find(([path]) => path === '/merchants')?.[1]]]));
    expect(bounded).toContainEqual(['/merchants/0', whole.find(([path]) => path === '/merchants/0')?.[1]]);
    const fine = { merchants: ['a', 'b'], lines: [{ tags: ['x'] }] };
    expect(boundForErrors(Body, fine)).toBe(fine);
  });
});
