import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { signHttpMessage, verifyContentDigest, verifyHttpMessage, verifyStandardWebhook, verifyWebhook, type FailureReason } from '../src';

// verifyWebhook sits behind a public endpoint: whatever arrives, it answers a result with a reason.
const T = 1_800_000_000;
const now = () => T * 1000;
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const URL_ = 'https://exchange.example/webhooks';
const REASONS: FailureReason[] = [
  'missing_signature', 'malformed_signature', 'missing_header', 'unknown_key', 'key_lookup_failed', 'invalid_key', 'unsupported_algorithm',
  'component_not_covered', 'missing_component', 'missing_digest', 'malformed_digest', 'unsupported_digest', 'digest_mismatch', 'expired',
  'not_yet_valid', 'bad_signature', 'invalid_input',
];

const verify = (headers: unknown, bodyBase64: unknown) =>
  verifyWebhook({ headers, bodyBase64, url: URL_, resolveKey: () => key.publicKey, standardWebhookKeys: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], now });

function expectFailure(result: Awaited<ReturnType<typeof verifyWebhook>>): void {
  expect(result.valid).toBe(false);
  if (!result.valid) expect(REASONS).toContain(result.reason);
}

// Strings rich in the characters parsers trip on (quotes, colons, NUL, CR/LF, non-ASCII).
const nasty = fc.string({ unit: fc.constantFrom(...'sig1=("@method";:,"\\ \u0000\r\n\t=:v1a,whsec_ keyid created 9 é\u{1F600}'.split('')), maxLength: 80 });
const anyString = fc.oneof(nasty, fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }));
const signatureNames = ['signature', 'Signature-Input', 'content-digest', 'webhook-signature', 'webhook-id', 'webhook-timestamp', 'content-type'];
const headerArb = fc.dictionary(fc.oneof(fc.constantFrom(...signatureNames), fc.string({ maxLength: 12 })), fc.oneof(anyString, fc.array(anyString, { maxLength: 3 })), {
  maxKeys: 8,
});

describe('hostile input never throws', () => {
  it('verifyWebhook: arbitrary JSON values as headers and body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), async (headers, body) => expectFailure(await verify(headers, body))),
      { numRuns: 300 },
    );
  });

  it('verifyWebhook: signature-shaped garbage in the signature headers', async () => {
    await fc.assert(
      fc.asyncProperty(headerArb, fc.oneof(fc.base64String({ maxLength: 64 }), anyString), async (headers, body) => expectFailure(await verify(headers, body))),
      { numRuns: 500 },
    );
  });

  it('verifyHttpMessage, verifyStandardWebhook and verifyContentDigest on arbitrary strings', async () => {
    await fc.assert(
      fc.asyncProperty(anyString, anyString, anyString, async (input, signature, digest) => {
        const headers = { 'signature-input': input, signature, 'content-digest': digest, 'webhook-signature': signature, 'webhook-id': input, 'webhook-timestamp': String(T) };
        const rfc = await verifyHttpMessage({ method: 'POST', url: URL_, headers, body: 'x' }, { resolveKey: () => key.publicKey, now });
        expect(rfc.valid).toBe(false);
        expect(verifyStandardWebhook({ headers, body: 'x', secretOrPublicKey: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', now }).valid).toBe(false);
        expect(verifyContentDigest(digest, 'x').valid).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('huge values and NUL bytes are refused as invalid_input, quickly', async () => {
    const big = 'a'.repeat(1_000_000);
    await expect(verify({ signature: big, 'signature-input': 'sig1=()' }, '')).resolves.toMatchObject({ reason: 'invalid_input', scheme: null });
    await expect(verify({ 'webhook-signature': 'v1,AAAA\u0000' }, '')).resolves.toMatchObject({ reason: 'invalid_input' });
    await expect(verify(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-h${i}`, 'v'])), '')).resolves.toMatchObject({ reason: 'invalid_input' });
    await expect(verify({ 'webhook-signature': 'v1,AAAA' }, Buffer.alloc(2 * 1024 * 1024).toString('base64'))).resolves.toMatchObject({ reason: 'invalid_input' });
    await expect(verify({ 'webhook-signature': 'v1,AAAA' }, 'not*base64')).resolves.toMatchObject({ reason: 'invalid_input' });
    await expect(verify(JSON.parse('{"__proto__": "x", "signature": "sig1=:AAAA:"}'), '')).resolves.toMatchObject({ valid: false, scheme: 'rfc9421' });
  });
});

describe('a valid delivery stays valid only untouched', () => {
  it('any change of one body byte is refused', async () => {
    const body = Buffer.from(JSON.stringify({ id: 'ord_1', note: 'é' }));
    const headers = await signHttpMessage(
      { method: 'POST', url: URL_, headers: { 'content-type': 'application/json' }, body },
      { key: key.privateKey, keyid: 'k1', now, components: ['@method', '@authority', '@path', 'content-digest', 'content-type'] },
    );
    await expect(verify(headers, body.toString('base64'))).resolves.toMatchObject({ valid: true, scheme: 'rfc9421' });
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: body.length - 1 }), fc.integer({ min: 1, max: 255 }), async (index, flip) => {
        const changed = Buffer.from(body);
        changed[index] ^= flip;
        await expect(verify(headers, changed.toString('base64'))).resolves.toMatchObject({ valid: false, reason: 'digest_mismatch' });
      }),
      { numRuns: 100 },
    );
  });
});
