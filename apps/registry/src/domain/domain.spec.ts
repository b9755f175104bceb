import { registryV1Wire } from '@exchange/proto';
import { canonicalize, sha256Hex } from '@exchange/crypto';
import { isDomainError } from '@exchange/platform';
import { artifactRefOf, hexOfRef, isContentRef, objectIdOf } from './ids';
import {
  attestationSubject,
  parsePayload,
  RESERVED_TYPES,
  validateMediaType,
  validateParties,
  validateTags,
  validateType,
  visibilityFrom,
} from './validation';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return isDomainError(err) ? err.code : 'not a domain error';
  }
  return undefined;
}

describe('object id', () => {
  it('is sha256 of canonical {type, payload, signer_agent_id}, independent of key order', () => {
    const id = objectIdOf('note', { b: 1, a: [true] }, 'x:agent:a');
    expect(id).toBe(`sha256:${sha256Hex(canonicalize({ type: 'note', payload: { a: [true], b: 1 }, signer_agent_id: 'x:agent:a' }))}`);
    expect(objectIdOf('note', { a: [true], b: 1 }, 'x:agent:a')).toBe(id);
    expect(objectIdOf('note', { a: [true], b: 2 }, 'x:agent:a')).not.toBe(id);
    expect(objectIdOf('note', { a: [true], b: 1 }, 'x:agent:b')).not.toBe(id);
    expect(isContentRef(id)).toBe(true);
    expect(isContentRef('sha256:XYZ')).toBe(false);
    expect(hexOfRef(artifactRefOf('ab'.repeat(32)))).toBe('ab'.repeat(32));
  });
});

describe('validation', () => {
  it('type and tag patterns', () => {
    expect(validateType('attestation')).toBe('attestation');
    expect(codeOf(() => validateType('Bad'))).toBe('validation_failed');
    expect(codeOf(() => validateType('a'.repeat(65)))).toBe('validation_failed');
    expect(validateTags(['x', 'x', 'a.b-c_d'])).toEqual(['x', 'a.b-c_d']);
    expect(codeOf(() => validateTags(['-x']))).toBe('validation_failed');
    expect(codeOf(() => validateTags(Array.from({ length: 21 }, (_, i) => `t${i}`)))).toBe('validation_failed');
  });

  it('parties ≤ 100, no blanks', () => {
    expect(validateParties(['a', 'a', 'b'])).toEqual(['a', 'b']);
    expect(codeOf(() => validateParties(Array.from({ length: 101 }, (_, i) => `p${i}`)))).toBe('validation_failed');
    expect(codeOf(() => validateParties(['']))).toBe('validation_failed');
  });

  it('payload is JSON ≤ 1 MiB and gets canonical text', () => {
    expect(parsePayload('{"b":1, "a":2}').canonical).toBe('{"a":2,"b":1}');
    expect(codeOf(() => parsePayload('{'))).toBe('validation_failed');
    expect(codeOf(() => parsePayload(JSON.stringify('x'.repeat(1024 * 1024))))).toBe('validation_failed');
  });

  it('attestations need subject_ref and claim', () => {
    expect(attestationSubject('attestation', { subject_ref: 'ctr_1', claim: 'ok' })).toBe('ctr_1');
    expect(attestationSubject('note', { anything: 1 })).toBeNull();
    expect(codeOf(() => attestationSubject('attestation', { claim: 'ok' }))).toBe('validation_failed');
    expect(codeOf(() => attestationSubject('attestation', { subject_ref: 'x' }))).toBe('validation_failed');
    expect(codeOf(() => attestationSubject('attestation', [1]))).toBe('validation_failed');
  });

  it('reserved types', () => {
    expect([...RESERVED_TYPES].sort()).toEqual(['identity_reveal', 'meter_epoch_table', 'party_alias_token', 'subscription_period_receipt']);
  });

  it('visibility round trip, default when unspecified', () => {
    expect(visibilityFrom(0, 'parties')).toBe('parties');
    expect(visibilityFrom(undefined, 'public')).toBe('public');
    // The domain decodes the proto numbers itself (it may not import proto): they must match the generated table.
    for (const v of ['public', 'parties', 'operator'] as const) expect(visibilityFrom(registryV1Wire.visibility.toProto(v), 'public')).toBe(v);
    expect(codeOf(() => visibilityFrom(9, 'public'))).toBe('validation_failed');
  });

  it('media types', () => {
    expect(validateMediaType('text/plain; charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(codeOf(() => validateMediaType('nonsense'))).toBe('validation_failed');
  });
});
