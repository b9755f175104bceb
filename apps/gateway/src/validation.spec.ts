import { Type } from 'typebox';
import { bodyMayBeOmitted, convertScalar, convertStringFields, validatorCompiler } from './validation';

describe('convertScalar', () => {
  it('should convert exact integer, number and boolean literals only', () => {
    expect(convertScalar({ type: 'integer' }, '42')).toBe(42);
    expect(convertScalar({ type: 'integer' }, '-3')).toBe(-3);
    for (const bad of ['1.5', '1e2', '0x10', ' 5', '5 ', '', '007', 'true']) {
      expect(convertScalar({ type: 'integer' }, bad)).toBe(bad);
    }
    expect(convertScalar({ type: 'number' }, '1.5')).toBe(1.5);
    expect(convertScalar({ type: 'boolean' }, 'true')).toBe(true);
    expect(convertScalar({ type: 'boolean' }, 'yes')).toBe('yes');
    expect(convertScalar({ anyOf: [{ type: 'integer' }, { type: 'null' }] }, '9')).toBe(9);
    expect(convertScalar({ type: 'string' }, '9')).toBe('9');
  });

  it('should leave unknown fields for the schema to refuse', () => {
    expect(convertStringFields({ properties: { limit: { type: 'integer' } } }, { limit: '5', other: '6' })).toEqual({ limit: 5, other: '6' });
  });
});

describe('validatorCompiler', () => {
  const schema = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false });

  it('should convert the query but check the body as sent', () => {
    const query = validatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/' });
    expect(query({ limit: '5' })).toEqual({ value: { limit: 5 } });
    const body = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/' });
    expect((body({ limit: '5' }) as { error?: unknown }).error).toBeDefined();
    expect(body({ limit: 5 })).toEqual({ value: { limit: 5 } });
  });

  it('should report errors with instance paths', () => {
    const query = validatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/' });
    const result = query({ limit: '1.5', extra: 'x' }) as { error: Array<{ instancePath: string }> };
    expect(result.error.map((e) => e.instancePath)).toEqual(expect.arrayContaining(['/limit', '/extra']));
  });

  it('should read an omitted body as {} only when the schema requires no field', () => {
    const optional = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/' });
    expect(optional(undefined)).toEqual({ value: {} });
    expect(optional(null)).toEqual({ value: {} });
    expect((optional('x') as { error?: unknown }).error).toBeDefined();
    const strict = Type.Object({ reason: Type.String() }, { additionalProperties: false });
    const requiredBody = validatorCompiler({ schema: strict, httpPart: 'body', method: 'POST', url: '/' });
    expect((requiredBody(undefined) as { error?: unknown }).error).toBeDefined();
    expect(bodyMayBeOmitted(strict as never)).toBe(false);
    // The query of a route is never "omitted" into {}: it is always an object already.
    const query = validatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/' });
    expect(query({})).toEqual({ value: {} });
  });
});
