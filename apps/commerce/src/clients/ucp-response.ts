import type { UcpValidator } from '@exchange/ucp';
import type { MerchantOutcome, RecordedMessage, SchemaResult, UcpOperation } from '../domain/merchant.ports';
import type { UcpCheckout, UcpMessage } from '../domain/ucp-types';
import type { HttpExchange } from './ucp-http';

// What a merchant's answer means (MerchantOutcome) and how it is kept as evidence. Every body is
// checked against the UCP response view: a checkout, an error_response (a business outcome), or a
// protocol error kept with its schema errors.

export interface Classified {
  outcome: MerchantOutcome;
  message: RecordedMessage;
}

interface Context {
  operation: UcpOperation;
  method: string;
  url: string;
  /** The checkout id asked for (get/update/complete/cancel): the answer must be about it. */
  checkoutId?: string;
  capabilities: readonly string[];
  validator: UcpValidator;
  maxBytes: number;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const errorText = (errors: Array<{ pointer: string; message: string }>) =>
  errors.slice(0, 20).map((e) => `${e.pointer || '/'} ${e.message}`).join('; ');

export function classifyExchange(exchange: HttpExchange, ctx: Context): Classified {
  const record = (kind: RecordedMessage['kind'], content: Partial<RecordedMessage['content']>, schemaResult: SchemaResult): RecordedMessage => ({
    kind,
    operation: ctx.operation,
    content: { url: ctx.url, headers: {}, body: null, ...content },
    schemaResult,
  });
  if (exchange.kind === 'timeout') return { outcome: { kind: 'timeout' }, message: record('merchant_error', { method: ctx.method, error: 'timeout' }, 'not_applicable') };
  if (exchange.kind === 'network') {
    return { outcome: { kind: 'unavailable', reason: exchange.reason }, message: record('merchant_error', { method: ctx.method, error: exchange.reason }, 'not_applicable') };
  }
  const { status, headers } = exchange;
  if (exchange.kind === 'too_large') {
    const error = `response body larger than ${ctx.maxBytes} bytes`;
    return { outcome: { kind: 'protocol_error', reason: error, httpStatus: status }, message: record('merchant_response', { status, headers, error }, 'invalid') };
  }
  const parsed = parseJson(exchange.text);
  const body = parsed.ok ? parsed.value : exchange.text;
  const answer = (outcome: MerchantOutcome, schemaResult: SchemaResult, error?: string): Classified => ({
    outcome,
    message: record('merchant_response', { status, headers, body, ...(error !== undefined ? { error } : {}) }, schemaResult),
  });

  // 5xx and 429: the merchant is failing or shedding load, whatever the body says.
  if (status >= 500 || status === 429) return answer({ kind: 'unavailable', reason: `HTTP ${status}`, httpStatus: status }, 'not_applicable');
  if (status >= 300 && status < 400) return answer({ kind: 'protocol_error', reason: `redirect (HTTP ${status})`, httpStatus: status }, 'not_applicable', 'redirect');
  if (!parsed.ok) return answer({ kind: 'protocol_error', reason: 'the response is not JSON', httpStatus: status }, 'invalid', 'not JSON');

  if (ctx.validator.validate('error_response', body).valid) {
    const error = body as { messages: UcpMessage[]; continue_url?: string };
    const outcome: MerchantOutcome = { kind: 'business_error', messages: error.messages, httpStatus: status };
    if (error.continue_url !== undefined) outcome.continueUrl = error.continue_url;
    return answer(outcome, 'valid');
  }
  if (status < 200 || status >= 300) return answer({ kind: 'protocol_error', reason: `unexpected HTTP ${status}`, httpStatus: status }, 'invalid', `HTTP ${status} without a UCP error_response`);

  const result = ctx.validator.validateCheckout('response', body, ctx.capabilities);
  if (!result.valid) {
    const error = errorText(result.errors);
    return answer({ kind: 'protocol_error', reason: `the checkout does not validate: ${error}`.slice(0, 500), httpStatus: status }, 'invalid', error);
  }
  const checkout = body as UcpCheckout;
  if (ctx.checkoutId !== undefined && checkout.id !== ctx.checkoutId) {
    const error = `asked for checkout ${ctx.checkoutId}, got ${String(checkout.id).slice(0, 100)}`;
    return answer({ kind: 'protocol_error', reason: error, httpStatus: status }, 'valid', error);
  }
  return answer({ kind: 'checkout', checkout, httpStatus: status }, 'valid');
}
