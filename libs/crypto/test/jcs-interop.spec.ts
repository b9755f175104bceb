import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalBytes, canonicalize, fromBase64, publicKeyFromPrivate, sign, toBase64, verify } from '../src';

// Signatures made by clients that are not JavaScript (issue 13 #4): the exchange re-canonicalizes
// what it receives with canonicalize(), so a signer's bytes must be RFC 8785 exactly — numbers
// included (1.0 → 1). The RFC 8785 outputs were produced by non-JS canonicalizers upstream.

const JCS_DIR = join(__dirname, 'vectors', 'jcs');
const seed = new Uint8Array(Array.from({ length: 32 }, (_, i) => i + 1));
const publicKey = publicKeyFromPrivate(seed);

describe('a signature over the RFC 8785 output bytes (a non-JS signer)', () => {
  const names = readdirSync(join(JCS_DIR, 'input')).filter((f) => f.endsWith('.json'));

  it.each(names)('%s: verifies against canonicalize(JSON.parse(input))', (name) => {
    const signedBytes = new Uint8Array(readFileSync(join(JCS_DIR, 'output', name)));
    const signature = sign(signedBytes, seed);
    const received: unknown = JSON.parse(readFileSync(join(JCS_DIR, 'input', name), 'utf8'));
    expect(verify(signature, canonicalBytes(received), publicKey)).toBe(true);
  });
});

describe('numbers in the JCS form', () => {
  it.each([
    ['1.0', '1'],
    ['0.0', '0'],
    ['-0.0', '0'],
    ['0.90', '0.9'],
    ['0.95', '0.95'],
    ['1E0', '1'],
    ['1e-7', '1e-7'],
    ['0.000001', '0.000001'],
    ['1e21', '1e+21'],
    ['100000000000000000000', '100000000000000000000'],
    ['0.30000000000000004', '0.30000000000000004'],
  ])('%s is printed %s', (written, expected) => {
    expect(canonicalize(JSON.parse(`{"score":${written}}`))).toBe(`{"score":${expected}}`);
  });
});

describe('a verification report signed by the Python code of /skill.md', () => {
  // Made with skill.md's sign_report() (Python 3.11, `cryptography`), seed bytes 1..32, score 1.0:
  // its canonical() signs `"score":1`, and Python's json.dumps wrote the body with `"score": 1.0`.
  const body =
    '{"verifier_id": "doc:agent:verifier", "result_id": "res_doc", "verdict": "pass", "score": 1.0, "checks": [{"name": "count", "ok": true}], ' +
    '"signature": "fHni0ulTV1ubBANMjzBDHb5SF2D1yySodyTSnFHOKw87Ru8hWl5MONVIrgAuCQKaB51uo3vJkpPQ81Tez7kDDQ=="}';

  it('verifies from the body as the exchange parses it, 1.0 and all', () => {
    const { signature, ...report } = JSON.parse(body) as { signature: string } & Record<string, unknown>;
    expect(canonicalize(report)).toBe('{"checks":[{"name":"count","ok":true}],"result_id":"res_doc","score":1,"verdict":"pass","verifier_id":"doc:agent:verifier"}');
    expect(verify(fromBase64(signature), canonicalBytes(report), publicKey)).toBe(true);
  });

  it('would not verify had the client signed `1.0` (json.dumps of the float): the rule is JCS, not the spelling', () => {
    const { signature: _ignored, ...report } = JSON.parse(body) as { signature: string } & Record<string, unknown>;
    const naive = '{"checks":[{"name":"count","ok":true}],"result_id":"res_doc","score":1.0,"verdict":"pass","verifier_id":"doc:agent:verifier"}';
    const naiveSignature = toBase64(sign(new TextEncoder().encode(naive), seed));
    expect(verify(fromBase64(naiveSignature), canonicalBytes(report), publicKey)).toBe(false);
  });
});
