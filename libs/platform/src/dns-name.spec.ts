import { isDnsName } from './dns-name';

describe('isDnsName', () => {
  it('accepts lower-case names of valid labels', () => {
    for (const name of ['sandbox-merchant.local', 'a.b', 'localhost', 'x1.example', `${'a'.repeat(63)}.com`]) expect(isDnsName(name)).toBe(true);
  });

  it('refuses upper case, ports, paths, schemes, empty or edge-hyphen labels and long names', () => {
    for (const name of ['', 'Shop.example', 'shop.example:443', 'shop.example/x', 'https://shop.example', 'a..b', 'shop.example.', '-a.b', 'a-.b', `${'a'.repeat(64)}.com`, `${'a.'.repeat(127)}ab`]) {
      expect({ name, ok: isDnsName(name) }).toEqual({ name, ok: false });
    }
  });
});
