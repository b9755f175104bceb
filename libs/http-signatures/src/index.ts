export type { BodyInput, Clock } from './body';
export { contentDigest, verifyContentDigest, type DigestAlgorithm, type DigestVerification } from './content-digest';
export { headerValue, sanitizeHeaders, type HeaderLimits, type HeaderMap } from './headers';
export { ALL_ALGORITHMS, algorithmOf, toKeyObject, type KeyInput, type SignatureAlgorithm } from './keys';
export { ucpComponents, type HttpMessage, type HttpRequest, type HttpResponse } from './message';
export type { Failure, FailureReason } from './results';
export { signHttpMessage, type SignOptions } from './rfc9421-sign';
export { verifyHttpMessage, type KeyResolver, type SignatureParams, type SignatureVerification, type VerifyOptions } from './rfc9421-verify';
export {
  generateStandardWebhookKeyPair,
  generateStandardWebhookSecret,
  signStandardWebhook,
  STANDARD_WEBHOOK_TOLERANCE_SEC,
  verifyStandardWebhook,
  type SignStandardWebhookInput,
  type StandardWebhookKey,
  type StandardWebhookVerification,
  type VerifyStandardWebhookInput,
} from './standard-webhooks';
export { UCP_WEBHOOK_COMPONENTS, verifyWebhook, type VerifyWebhookInput, type WebhookScheme, type WebhookVerification } from './verify-webhook';
