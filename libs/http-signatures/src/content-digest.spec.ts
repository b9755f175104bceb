import { contentDigest, verifyContentDigest } from './content-digest';

const body = '{"hello": "world"}';
// RFC 9421 B.2 test-request body: sha-512 value from the RFC, sha-256 from the copied vectors file.
const SHA512 = 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:';
const SHA256 = 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:';

describe('contentDigest', () => {
  it('computes sha-256 by default and sha-512 on request', () => {
    expect(contentDigest(body)).toBe(SHA256);
    expect(contentDigest(Buffer.from(body), 'sha-512')).toBe(SHA512);
  });

  it('refuses an unknown algorithm', () => {
    expect(() => contentDigest(body, 'md5' as never)).toThrow('unsupported digest algorithm');
  });
});

describe('verifyContentDigest', () => {
  it('accepts sha-256, sha-512 and both together', () => {
    expect(verifyContentDigest(SHA256, body)).toEqual({ valid: true, algorithms: ['sha-256'] });
    expect(verifyContentDigest(SHA512, body)).toEqual({ valid: true, algorithms: ['sha-512'] });
    expect(verifyContentDigest(`${SHA512}, ${SHA256}`, Buffer.from(body))).toEqual({ valid: true, algorithms: ['sha-512', 'sha-256'] });
  });

  it('ignores algorithms it does not know but needs one it does', () => {
    expect(verifyContentDigest(`md5=:AAAA:, ${SHA256}`, body)).toEqual({ valid: true, algorithms: ['sha-256'] });
    expect(verifyContentDigest('md5=:AAAA:', body)).toMatchObject({ valid: false, reason: 'unsupported_digest' });
  });

  it('reports a changed body as digest_mismatch, even when another member matches', () => {
    expect(verifyContentDigest(SHA256, `${body} `)).toMatchObject({ valid: false, reason: 'digest_mismatch' });
    expect(verifyContentDigest(`${SHA256}, sha-512=:AAAA:`, body)).toMatchObject({ valid: false, reason: 'digest_mismatch' });
  });

  it('names missing and malformed headers', () => {
    expect(verifyContentDigest(undefined, body)).toMatchObject({ valid: false, reason: 'missing_digest' });
    expect(verifyContentDigest('  ', body)).toMatchObject({ valid: false, reason: 'missing_digest' });
    expect(verifyContentDigest('sha-256=X48E9q', body)).toMatchObject({ valid: false, reason: 'malformed_digest' });
    expect(verifyContentDigest('sha-256="text"', body)).toMatchObject({ valid: false, reason: 'malformed_digest' });
    expect(verifyContentDigest('sha-256=:X48E9q\u0000:', body)).toMatchObject({ valid: false, reason: 'malformed_digest' });
  });

  it('digests the empty body', () => {
    expect(verifyContentDigest(contentDigest(''), new Uint8Array())).toEqual({ valid: true, algorithms: ['sha-256'] });
  });
});
