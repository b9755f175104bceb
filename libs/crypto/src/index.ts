export { canonicalBytes, canonicalize } from './canonical-json';
export { CanonicalizationError, CryptoFormatError } from './errors';
export { fromBase64, fromBase64Url, sha256, sha256Hex, toBase64 } from './encoding';
export {
  generateKeyPair,
  PRIVATE_KEY_LENGTH,
  PUBLIC_KEY_LENGTH,
  publicKeyFromPrivate,
  sign,
  SIGNATURE_LENGTH,
  signCanonical,
  verify,
  verifyCanonical,
  verifyCanonicalAsync,
  verifyWithAnyKeyAsync,
} from './ed25519';
export { passesKeyPolicy } from './ed25519-policy';
export { ed25519PublicKeyObject } from './key-object-cache';
export { isValidPublicKey } from './public-key';
export {
  bodySha256,
  registrationProofPayload,
  REQUEST_NONCE_PATTERN,
  requestSigningPayload,
  type RegistrationProofPayload,
  type RequestSigningPayload,
} from './payloads';
