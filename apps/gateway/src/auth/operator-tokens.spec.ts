import { OperatorTokenVerifier, parseOperatorTokens } from './operator-tokens';

describe('parseOperatorTokens', () => {
  it('should read name=token pairs separated by commas', () => {
    expect(parseOperatorTokens('alice=aaaaaaaaaaaaaaaa1, bob=bbbbbbbbbbbbbbbb2')).toEqual([
      { name: 'alice', token: 'aaaaaaaaaaaaaaaa1' },
      { name: 'bob', token: 'bbbbbbbbbbbbbbbb2' },
    ]);
  });

  it('should refuse short tokens, missing names, duplicates and an empty list', () => {
    expect(() => parseOperatorTokens('alice=short')).toThrow(/at least 16/);
    expect(() => parseOperatorTokens('=aaaaaaaaaaaaaaaaaaaa')).toThrow(/needs a name/);
    expect(() => parseOperatorTokens('tokenwithoutname')).toThrow(/needs a name/);
    expect(() => parseOperatorTokens('a=aaaaaaaaaaaaaaaa1,a=bbbbbbbbbbbbbbbb2')).toThrow(/twice/);
    expect(() => parseOperatorTokens(' , ')).toThrow(/no token/);
  });
});

describe(OperatorTokenVerifier.name, () => {
  const sut = new OperatorTokenVerifier([
    { name: 'alice', token: 'aaaaaaaaaaaaaaaa1' },
    { name: 'bob', token: 'bbbbbbbbbbbbbbbb2' },
  ]);

  it('should name the operator whose token matches', () => {
    expect(sut.match('aaaaaaaaaaaaaaaa1')?.name).toBe('alice');
    expect(sut.match('bbbbbbbbbbbbbbbb2')?.name).toBe('bob');
  });

  it('should give each token a stable id that does not reveal it', () => {
    const id = sut.match('aaaaaaaaaaaaaaaa1')!.tokenId;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(sut.match('aaaaaaaaaaaaaaaa1')!.tokenId).toBe(id);
    expect(sut.match('bbbbbbbbbbbbbbbb2')!.tokenId).not.toBe(id);
  });

  it('should refuse other tokens, prefixes and the empty string', () => {
    expect(sut.match('aaaaaaaaaaaaaaaa')).toBeNull();
    expect(sut.match('aaaaaaaaaaaaaaaa12')).toBeNull();
    expect(sut.match('')).toBeNull();
  });
});
