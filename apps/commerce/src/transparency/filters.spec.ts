import { filterText } from './filters';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return 'no error';
};

describe('transparency filters', () => {
  it('should pass a plain filter, drop an empty one and refuse control characters or 256 characters', () => {
    expect(filterText('currency', 'USD')).toBe('USD');
    expect(filterText('currency', '')).toBeNull();
    expect(filterText('currency', undefined)).toBeNull();
    expect(code(() => filterText('merchant_domain', 'a\u0000b'))).toBe('validation_failed');
    expect(code(() => filterText('agent_id', 'x'.repeat(256)))).toBe('validation_failed');
  });
});
