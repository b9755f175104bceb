import { status } from '@grpc/grpc-js';
import { DomainError } from '@exchange/platform';
import * as ed from '@noble/ed25519';
import { generateKeyPair, signCanonical, toBase64 } from '@exchange/crypto';
import { PUBKEY_SET_MAX, assertRegistrationProof, validateRegistration, type RegistrationInput } from './registration';

// Known-answer vector, computed with node:crypto (OpenSSL) from the RFC 8032 test-1 seed
// 9d61b19d…7f60 over {"agent_id":"acme:agent:alpha","primary_pubkey":"11qY…URo=","proof_nonce":"nonce-0001"}.
const VECTOR = {
  agentId: 'acme:agent:alpha',
  primaryPubkey: '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=',
  proofNonce: 'nonce-0001',
  proofSignature: 'BLS/J8t77Qg0ITqcIeT+D+C7tT8BNE+oPv0EgR+QtZ4vTn0Wo48g5KbQQjXzXQf+AxiAm1/c7clnSt1IbJOdCQ==',
};

const KEY_A = toBase64(generateKeyPair().publicKey);
const KEY_B = toBase64(generateKeyPair().publicKey);
const SIG_64 = toBase64(new Uint8Array(64).fill(3));

function input(overrides: Partial<RegistrationInput> = {}): RegistrationInput {
  return { ...VECTOR, pubkeySet: [], identityLevel: null, ...overrides };
}

function errorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

async function proofErrorOf(registration: ReturnType<typeof validateRegistration>): Promise<DomainError> {
  const err = await assertRegistrationProof(registration).then(
    () => new Error('expected a DomainError'),
    (e: unknown) => e,
  );
  if (err instanceof DomainError) return err;
  throw err;
}

function pointers(fn: () => unknown): string[] {
  const err = errorOf(fn);
  expect(err.code).toBe('validation_failed');
  expect(err.grpcCode).toBe(status.INVALID_ARGUMENT);
  return (err.details as { errors: Array<{ pointer: string }> }).errors.map((e) => e.pointer);
}

describe('registration', () => {
  describe('validateRegistration', () => {
    it('should accept a well-formed registration and default the sandbox level', () => {
      const reg = validateRegistration(input({ pubkeySet: [KEY_A, KEY_B] }), 'sandbox');
      expect(reg.identityLevel).toBe('SANDBOX_UNVERIFIED');
      expect(reg.pubkeySet).toEqual([KEY_A, KEY_B]);
    });

    it('should default to MAINNET_BASIC in mainnet', () => {
      expect(validateRegistration(input(), 'mainnet').identityLevel).toBe('MAINNET_BASIC');
    });

    it.each([
      'acme:agent:alpha',
      'a:agent:b',
      'acme.io:agent:buyer-01',
      `${'a'.repeat(63)}:agent:${'b'.repeat(63)}`,
    ])('should accept agent_id %s', (agentId) => {
      expect(() => validateRegistration(input({ agentId }), 'sandbox')).not.toThrow();
    });

    it.each([
      '',
      'acme:alpha',
      'Acme:agent:alpha',
      'acme:agent:',
      ':agent:alpha',
      '-acme:agent:alpha',
      'acme:agent:_alpha',
      'acme:agent:alpha:beta',
      'acme :agent:alpha',
      `${'a'.repeat(64)}:agent:b`,
      `a:agent:${'b'.repeat(64)}`,
    ])('should refuse agent_id %j', (agentId) => {
      expect(pointers(() => validateRegistration(input({ agentId }), 'sandbox'))).toEqual(['/agent_id']);
    });

    it.each([
      ['not base64', '@@@@'],
      ['31 bytes', toBase64(new Uint8Array(31))],
      ['33 bytes', toBase64(new Uint8Array(33))],
      ['unpadded', KEY_A.replace(/=+$/, '')],
      ['base64url', toBase64(new Uint8Array(32).fill(0xfb)).replace(/\+/g, '-').replace(/\//g, '_')],
    ])('should refuse a primary_pubkey that is %s', (_what, primaryPubkey) => {
      expect(pointers(() => validateRegistration(input({ primaryPubkey }), 'sandbox'))).toEqual(['/primary_pubkey']);
    });

    it('should point at each bad pubkey_set entry', () => {
      const bad = toBase64(new Uint8Array(16));
      expect(pointers(() => validateRegistration(input({ pubkeySet: [KEY_A, bad, 'x'] }), 'sandbox'))).toEqual([
        '/pubkey_set/1',
        '/pubkey_set/2',
      ]);
    });

    it.each([
      ['the identity point (small order)', toBase64(Uint8Array.of(1, ...new Array(31).fill(0)))],
      ['a y ≥ p spelling', toBase64(Uint8Array.of(0xee, ...new Array(30).fill(0xff), 0x7f))],
      ['not a curve point (y = 2)', toBase64(Uint8Array.of(2, ...new Array(31).fill(0)))],
    ])('should refuse a pubkey_set key that is %s', (_what, key) => {
      const err = errorOf(() => validateRegistration(input({ pubkeySet: [KEY_A, key] }), 'sandbox'));
      expect((err.details as { errors: unknown[] }).errors).toEqual([
        { pointer: '/pubkey_set/1', message: 'must be an ed25519 public key: a canonical curve point, not of small order' },
      ]);
    });

    it('should refuse a small-order primary key through its proof, as verify() refuses small-order keys', async () => {
      // A = identity point: [k]A = I, so (R = [s]B, s) satisfies the cofactorless equation for any
      // payload and passes the signature's own checks; only the key policy can refuse it.
      const identity = toBase64(Uint8Array.of(1, ...new Array(31).fill(0)));
      const s = 0x1234567890abcdefn;
      const sLE = Uint8Array.from({ length: 32 }, (_, i) => Number((s >> BigInt(8 * i)) & 0xffn));
      const forged = toBase64(Uint8Array.of(...ed.Point.BASE.multiply(s).toBytes(), ...sLE));
      const reg = validateRegistration(input({ primaryPubkey: identity, proofSignature: forged }), 'sandbox');
      expect((await proofErrorOf(reg)).code).toBe('key_proof_failed');
    });

    it('should refuse duplicate keys, including a repeat of the primary', () => {
      expect(
        pointers(() => validateRegistration(input({ pubkeySet: [KEY_A, KEY_A, VECTOR.primaryPubkey] }), 'sandbox')),
      ).toEqual(['/pubkey_set/1', '/pubkey_set/2']);
    });

    it(`should refuse more than ${PUBKEY_SET_MAX} extra keys`, () => {
      const keys = Array.from({ length: PUBKEY_SET_MAX + 1 }, () => toBase64(generateKeyPair().publicKey));
      expect(pointers(() => validateRegistration(input({ pubkeySet: keys }), 'sandbox'))).toEqual(['/pubkey_set']);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'n'.repeat(256)],
      ['a control character', 'nonce\n1'],
      ['non-ASCII', 'nonce-é'],
    ])('should refuse a proof_nonce that is %s', (_what, proofNonce) => {
      expect(pointers(() => validateRegistration(input({ proofNonce }), 'sandbox'))).toEqual(['/proof_nonce']);
    });

    it('should accept a 255-character printable nonce', () => {
      expect(() => validateRegistration(input({ proofNonce: '~ '.repeat(127) + 'x' }), 'sandbox')).not.toThrow();
    });

    it.each([
      ['63 bytes', toBase64(new Uint8Array(63))],
      ['65 bytes', toBase64(new Uint8Array(65))],
      ['not base64', 'signature!'],
    ])('should refuse a proof_signature that is %s', (_what, proofSignature) => {
      expect(pointers(() => validateRegistration(input({ proofSignature }), 'sandbox'))).toEqual(['/proof_signature']);
    });

    it('should report every bad field at once', () => {
      expect(
        pointers(() =>
          validateRegistration({ agentId: 'x', primaryPubkey: 'y', pubkeySet: ['z'], identityLevel: null, proofNonce: '', proofSignature: '' }, 'sandbox'),
        ),
      ).toEqual(['/agent_id', '/primary_pubkey', '/pubkey_set/0', '/proof_nonce', '/proof_signature']);
    });

    it('should refuse a mainnet level in sandbox with identity_level_not_allowed', () => {
      const err = errorOf(() => validateRegistration(input({ identityLevel: 'MAINNET_BASIC' }), 'sandbox'));
      expect(err.grpcCode).toBe(status.PERMISSION_DENIED);
      expect(err.code).toBe('identity_level_not_allowed');
    });

    it('should keep a mainnet level as sent in mainnet', () => {
      expect(validateRegistration(input({ identityLevel: 'MAINNET_VERIFIED' }), 'mainnet').identityLevel).toBe(
        'MAINNET_VERIFIED',
      );
    });

    it('should check the shape before the level', () => {
      expect(
        pointers(() => validateRegistration(input({ agentId: 'bad', identityLevel: 'MAINNET_BASIC' }), 'sandbox')),
      ).toEqual(['/agent_id']);
    });

    it('should not accept SIG_64-shaped junk as a proof', async () => {
      const reg = validateRegistration(input({ proofSignature: SIG_64 }), 'sandbox');
      expect((await proofErrorOf(reg)).code).toBe('key_proof_failed');
    });
  });

  describe('assertRegistrationProof', () => {
    it('should accept the known-answer vector', async () => {
      await expect(assertRegistrationProof(validateRegistration(input(), 'sandbox'))).resolves.toBeUndefined();
    });

    it.each([
      ['agent_id', { agentId: 'acme:agent:beta' }],
      ['proof_nonce', { proofNonce: 'nonce-0002' }],
      ['primary_pubkey', { primaryPubkey: KEY_A }],
    ])('should fail with the exact message when %s differs from what was signed', async (_field, change) => {
      const err = await proofErrorOf(validateRegistration(input(change), 'sandbox'));
      expect(err.grpcCode).toBe(status.INVALID_ARGUMENT);
      expect(err.code).toBe('key_proof_failed');
      expect(err.message).toBe('key ownership proof failed');
    });

    it('should accept a fresh key pair signing the canonical payload', async () => {
      const { privateKey, publicKey } = generateKeyPair();
      const primaryPubkey = toBase64(publicKey);
      const proofSignature = signCanonical(
        { proof_nonce: 'n', primary_pubkey: primaryPubkey, agent_id: 'x:agent:y' },
        privateKey,
      );
      const reg = validateRegistration(
        { agentId: 'x:agent:y', primaryPubkey, pubkeySet: [], identityLevel: null, proofNonce: 'n', proofSignature },
        'sandbox',
      );
      await expect(assertRegistrationProof(reg)).resolves.toBeUndefined();
    });

    it('should refuse a signature over a payload with an extra field', async () => {
      const { privateKey, publicKey } = generateKeyPair();
      const primaryPubkey = toBase64(publicKey);
      const proofSignature = signCanonical(
        { agent_id: 'x:agent:y', primary_pubkey: primaryPubkey, proof_nonce: 'n', identity_level: 'SANDBOX_UNVERIFIED' },
        privateKey,
      );
      const reg = validateRegistration(
        { agentId: 'x:agent:y', primaryPubkey, pubkeySet: [], identityLevel: null, proofNonce: 'n', proofSignature },
        'sandbox',
      );
      expect((await proofErrorOf(reg)).message).toBe('key ownership proof failed');
    });
  });
});
