import { __setUuidv7StateForTests, isId, isUuidv7, newId, uuidv7, uuidv7Timestamp } from './ids';

const FORMAT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('uuidv7', () => {
  it('should have the 8-4-4-4-12 lowercase hex format', () => {
    for (let i = 0; i < 100; i++) expect(uuidv7()).toMatch(FORMAT);
  });

  it('should set version 7 and the RFC 9562 variant (10xx)', () => {
    for (let i = 0; i < 100; i++) {
      const hex = uuidv7().replace(/-/g, '');
      expect(parseInt(hex[12], 16)).toBe(7);
      expect(parseInt(hex[16], 16) >> 2).toBe(0b10);
    }
  });

  it('should carry the current unix time in milliseconds in the first 48 bits', () => {
    const before = Date.now();
    const id = uuidv7();
    const after = Date.now();
    const ms = uuidv7Timestamp(id);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });

  it('should be strictly increasing in string order within the process (same millisecond too)', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7());
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should stay monotonic when the clock steps backwards', () => {
    const future = Date.now() + 60_000;
    __setUuidv7StateForTests({ ms: future, randA: 5, randBHi: 7, randBLo: 9 });
    // The wall clock is now "behind" the last id: the timestamp is kept, the counter advances.
    const first = uuidv7();
    const second = uuidv7();
    expect(uuidv7Timestamp(first)).toBe(future);
    expect(uuidv7Timestamp(second)).toBe(future);
    expect(first.endsWith('0000000a')).toBe(true);
    expect(second.endsWith('0000000b')).toBe(true);
    expect(second > first).toBe(true);
  });

  it('should carry an exhausted random counter into the timestamp', () => {
    const future = Date.now() + 120_000;
    __setUuidv7StateForTests({ ms: future, randA: 0xfff, randBHi: 0x3fffffff, randBLo: 0xffffffff });
    const before = `${future.toString(16).padStart(12, '0').replace(/^(.{8})/, '$1-')}-7fff-bfff-ffffffffffff`;
    const next = uuidv7();
    expect(uuidv7Timestamp(next)).toBe(future + 1);
    expect(next > before).toBe(true);
    expect(isUuidv7(next)).toBe(true);
  });

  it('should carry the low random word into the high one', () => {
    const future = Date.now() + 180_000;
    __setUuidv7StateForTests({ ms: future, randA: 1, randBHi: 2, randBLo: 0xffffffff });
    const next = uuidv7();
    expect(next.slice(14, 18)).toBe('7001');
    expect(next.slice(19, 23)).toBe('8000');
    expect(next.slice(24)).toBe('000300000000');
  });
});

describe('newId / isId', () => {
  it('should prefix a UUIDv7', () => {
    const id = newId('ctr');
    expect(id).toMatch(/^ctr_[0-9a-f-]{36}$/);
    expect(isUuidv7(id.slice(4))).toBe(true);
    expect(isId('ctr', id)).toBe(true);
  });

  it('should reject another prefix, a missing separator, uppercase, or another UUID version', () => {
    const id = newId('deal');
    expect(isId('dep', id)).toBe(false);
    expect(isId('deal', id.replace('_', ''))).toBe(false);
    expect(isId('deal', id.toUpperCase())).toBe(false);
    expect(isId('deal', 'deal_6ba7b810-9dad-41d1-80b4-00c04fd430c8')).toBe(false); // v4
    expect(isId('deal', `${id}0`)).toBe(false);
    expect(isId('cs', `cs_${id.slice(5)}`)).toBe(true);
  });
});
