import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { DomainError, ERROR_CODE_METADATA, ERROR_DETAILS_METADATA, ERROR_REPLAYED_METADATA } from './errors';

// How a failure travels between services (DESIGN §3 "Errors"). Error details often echo what a
// client sent, and grpc-js throws on a non-ASCII value in an ASCII metadata key — inside the
// callback, where nothing catches it — so details go as UTF-8 JSON in a binary (`-bin`) key, and
// the code and message are made safe before they reach grpc-js.

/** Any printable-ASCII-only rendering of `text`: other characters become `\uXXXX`. */
export function asciiEscape(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * grpc-js percent-encodes the status message with `encodeURI`, which throws on a lone surrogate;
 * replace those (and only those) so the message keeps its non-ASCII text otherwise.
 */
export function wellFormedMessage(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** The status and trailers of a DomainError, safe to hand to grpc-js whatever its text holds. */
export function domainErrorStatus(err: DomainError): Partial<ServiceError> & { code: status; details: string; metadata: Metadata } {
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_METADATA, asciiEscape(err.code));
  if (err.details !== undefined) metadata.set(ERROR_DETAILS_METADATA, Buffer.from(JSON.stringify(err.details), 'utf8'));
  if (err.replayed) metadata.set(ERROR_REPLAYED_METADATA, 'true');
  return { code: err.grpcCode, details: wellFormedMessage(err.message), metadata };
}

const INTERNAL_MESSAGE = 'internal error';

/** What a caller sees for anything that is not a DomainError: INTERNAL, no text of the cause. */
export function internalErrorStatus(): Partial<ServiceError> & { code: status; details: string; metadata: Metadata } {
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_METADATA, 'internal');
  return { code: status.INTERNAL, details: INTERNAL_MESSAGE, metadata };
}

/** The JSON object in the `-bin` details trailer, or undefined (absent or malformed: dropped). */
export function readErrorDetails(metadata: Metadata | undefined): Record<string, unknown> | undefined {
  const raw = metadata?.get(ERROR_DETAILS_METADATA)[0];
  if (raw === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
