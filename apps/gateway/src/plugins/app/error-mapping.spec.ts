import { Metadata, status } from '@grpc/grpc-js';
import { GRPC_TO_HTTP, isCapCode, problemFromError, problemFromGrpcError, STATUS_BY_CODE, validationErrorsToItems } from './error-mapping';
import { HttpProblem } from './problem';

function grpcError(code: status, message: string, errorCode?: string, details?: object) {
  const metadata = new Metadata();
  if (errorCode) metadata.set('x-error-code', errorCode);
  if (details) metadata.set('x-error-details-bin', Buffer.from(JSON.stringify(details)));
  return Object.assign(new Error(`${code} ${status[code]}: ${message}`), { code, details: message, metadata });
}

describe('GRPC_TO_HTTP', () => {
  it('should follow DESIGN §3 for every status it names', () => {
    expect(GRPC_TO_HTTP[status.INVALID_ARGUMENT]).toBe(400);
    expect(GRPC_TO_HTTP[status.UNAUTHENTICATED]).toBe(401);
    expect(GRPC_TO_HTTP[status.PERMISSION_DENIED]).toBe(403);
    expect(GRPC_TO_HTTP[status.NOT_FOUND]).toBe(404);
    expect(GRPC_TO_HTTP[status.ALREADY_EXISTS]).toBe(409);
    expect(GRPC_TO_HTTP[status.FAILED_PRECONDITION]).toBe(409);
    expect(GRPC_TO_HTTP[status.ABORTED]).toBe(409);
    expect(GRPC_TO_HTTP[status.RESOURCE_EXHAUSTED]).toBe(429);
    expect(GRPC_TO_HTTP[status.UNAVAILABLE]).toBe(503);
    expect(GRPC_TO_HTTP[status.DEADLINE_EXCEEDED]).toBe(504);
  });
});

describe('problemFromGrpcError', () => {
  it('should take the code and details from the trailers', () => {
    expect(problemFromGrpcError(grpcError(status.FAILED_PRECONDITION, 'agent is frozen, cannot become frozen', 'invalid_state', { current: 'frozen', wanted: 'frozen' }))).toEqual({
      status: 409,
      code: 'invalid_state',
      detail: 'agent is frozen, cannot become frozen',
      extras: { current: 'frozen', wanted: 'frozen' },
    });
  });

  it('should turn caps into 403 and leave other exhaustion at 429', () => {
    expect(isCapCode('faucet_cap_exceeded')).toBe(true);
    expect(isCapCode('rate_limited')).toBe(false);
    expect(problemFromGrpcError(grpcError(status.RESOURCE_EXHAUSTED, 'cap', 'withdrawal_cap_exceeded')).status).toBe(403);
    expect(problemFromGrpcError(grpcError(status.RESOURCE_EXHAUSTED, 'busy', 'too_busy')).status).toBe(429);
  });

  it('should turn withdrawal_limit_exceeded into 403 with its details', () => {
    expect(isCapCode('withdrawal_limit_exceeded')).toBe(true);
    expect(isCapCode('rate_limit_exceeded')).toBe(false);
    const details = { limit: '1000', used_today: '990', resets_at: '2026-11-22T00:00:00.000Z' };
    expect(problemFromGrpcError(grpcError(status.RESOURCE_EXHAUSTED, 'daily limit', 'withdrawal_limit_exceeded', details))).toEqual({
      status: 403,
      code: 'withdrawal_limit_exceeded',
      detail: 'daily limit',
      extras: details,
    });
  });

  it('should answer 422 for idempotency_key_reused and 409 for idempotency_in_progress', () => {
    expect(STATUS_BY_CODE['idempotency_key_reused']).toBe(422);
    expect(problemFromGrpcError(grpcError(status.INVALID_ARGUMENT, 'reused', 'idempotency_key_reused'))).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(problemFromGrpcError(grpcError(status.INVALID_ARGUMENT, 'bad key', 'invalid_idempotency_key')).status).toBe(400);
    expect(problemFromGrpcError(grpcError(status.ABORTED, 'running', 'idempotency_in_progress'))).toMatchObject({ status: 409, code: 'idempotency_in_progress' });
  });

  it('should answer the market’s wallet_unavailable as 503 with its own code and message', () => {
    expect(STATUS_BY_CODE['wallet_unavailable']).toBe(503);
    expect(problemFromGrpcError(grpcError(status.UNAVAILABLE, 'wallet-ledger unreachable; retry', 'wallet_unavailable'))).toEqual({
      status: 503,
      code: 'wallet_unavailable',
      detail: 'wallet-ledger unreachable; retry',
    });
  });

  it('should mark a replayed stored refusal with Idempotent-Replayed, and nothing else', () => {
    const replayed = grpcError(status.FAILED_PRECONDITION, 'insufficient funds', 'insufficient_funds');
    replayed.metadata.set('x-idempotent-replayed', 'true');
    expect(problemFromGrpcError(replayed)).toMatchObject({ status: 409, code: 'insufficient_funds', headers: { 'idempotent-replayed': 'true' } });
    expect(problemFromGrpcError(grpcError(status.FAILED_PRECONDITION, 'insufficient funds', 'insufficient_funds')).headers).toBeUndefined();
  });

  it('should hide the message of 5xx failures', () => {
    expect(problemFromGrpcError(grpcError(status.INTERNAL, 'SELECT secret', 'internal'))).toEqual({ status: 500, code: 'internal', detail: 'internal error' });
    expect(problemFromGrpcError(grpcError(status.UNKNOWN, 'boom'))).toMatchObject({ status: 500, code: 'internal' });
    expect(problemFromGrpcError(grpcError(status.DATA_LOSS, 'disk'))).toMatchObject({ status: 500, code: 'internal' });
    expect(problemFromGrpcError(grpcError(status.DEADLINE_EXCEEDED, 'Deadline exceeded after 5.001s'))).toEqual({
      status: 504,
      code: 'deadline_exceeded',
      detail: 'a backing service did not answer in time; retry later',
    });
    expect(problemFromGrpcError(grpcError(status.UNAVAILABLE, 'No connection established. Last error: connect ECONNREFUSED 10.0.0.7:50051'))).toEqual({
      status: 503,
      code: 'service_unavailable',
      detail: 'a backing service is unavailable; retry later',
    });
    expect(problemFromGrpcError(grpcError(status.UNIMPLEMENTED, 'method x'))).toMatchObject({ status: 501, code: 'not_implemented' });
  });

  it('should keep read_only as the service chose it', () => {
    expect(problemFromGrpcError(grpcError(status.UNAVAILABLE, 'the exchange is read-only', 'read_only'))).toMatchObject({ status: 503, code: 'read_only' });
  });

  it('should keep a service-chosen UNAVAILABLE code such as a kill switch', () => {
    expect(problemFromGrpcError(grpcError(status.UNAVAILABLE, 'kill switch awards is on', 'kill_switch:awards'))).toMatchObject({
      status: 503,
      code: 'kill_switch:awards',
      detail: 'kill switch awards is on',
    });
  });
});

describe('upstream merchant failures (commerce)', () => {
  it('should keep the listed 502/504 codes a service chose, with its message', () => {
    expect(problemFromGrpcError(grpcError(status.UNAVAILABLE, 'merchant answered 503', 'merchant_unavailable'))).toMatchObject({ status: 502, code: 'merchant_unavailable', detail: 'merchant answered 503' });
    expect(problemFromGrpcError(grpcError(status.FAILED_PRECONDITION, 'checkout without totals', 'merchant_protocol_error'))).toMatchObject({ status: 502, code: 'merchant_protocol_error' });
    expect(problemFromGrpcError(grpcError(status.DEADLINE_EXCEEDED, 'no answer in 10 s', 'merchant_timeout'))).toMatchObject({ status: 504, code: 'merchant_timeout' });
  });

  it('should still hide a plain deadline and an unlisted code carried as 504', () => {
    expect(problemFromGrpcError(grpcError(status.DEADLINE_EXCEEDED, 'deadline'))).toMatchObject({ status: 504, code: 'deadline_exceeded' });
    expect(problemFromGrpcError(grpcError(status.DEADLINE_EXCEEDED, 'db 10.0.0.7 slow', 'db_slow'))).toMatchObject({ status: 504, code: 'deadline_exceeded', detail: 'a backing service did not answer in time; retry later' });
  });

  it('should map the merchant-profile codes to 422 and 424', () => {
    expect(problemFromGrpcError(grpcError(status.FAILED_PRECONDITION, 'not a business profile', 'profile_malformed'))).toMatchObject({ status: 422, code: 'profile_malformed' });
    expect(problemFromGrpcError(grpcError(status.UNAVAILABLE, 'redirect refused', 'profile_unreachable'))).toMatchObject({ status: 424, code: 'profile_unreachable', detail: 'redirect refused' });
  });
});

describe('problemFromError', () => {
  it('should pass HttpProblem through and hide unknown errors', () => {
    expect(problemFromError(new HttpProblem({ status: 418, code: 'teapot', detail: 'short and stout' }))).toEqual({ status: 418, code: 'teapot', detail: 'short and stout' });
    expect(problemFromError(new TypeError('cannot read x of undefined'))).toEqual({ status: 500, code: 'internal', detail: 'internal error' });
  });

  it('should name the request part of a validation error', () => {
    const err = Object.assign(new Error('x'), { validation: [{ keyword: 'minimum', instancePath: '/limit', message: 'must be >= 1' }], validationContext: 'querystring' });
    expect(problemFromError(err)).toEqual({
      status: 400,
      code: 'validation_failed',
      detail: 'query/limit must be >= 1',
      errors: [{ pointer: '/limit', message: 'must be >= 1' }],
    });
  });
});

describe('validationErrorsToItems', () => {
  it('should report unknown fields once and summarise union branches', () => {
    expect(
      validationErrorsToItems([
        { keyword: 'boolean', schemaPath: '#/additionalProperties', instancePath: '/x', message: 'schema is false' },
        { keyword: 'additionalProperties', schemaPath: '#', instancePath: '', params: { additionalProperties: ['x'] } },
        { keyword: 'type', schemaPath: '#/properties/c/anyOf/0', instancePath: '/c', message: 'must be string' },
        { keyword: 'type', schemaPath: '#/properties/c/anyOf/1', instancePath: '/c', message: 'must be null' },
        { keyword: 'anyOf', schemaPath: '#/properties/c', instancePath: '/c', message: 'must match a schema in anyOf' },
        { keyword: 'required', schemaPath: '#', instancePath: '', params: { requiredProperties: ['a', 'b'] } },
      ]),
    ).toEqual([
      { pointer: '/x', message: 'unknown field' },
      { pointer: '/c', message: 'does not match any allowed shape (check the type, or null where allowed)' },
      { pointer: '/a', message: 'is required' },
      { pointer: '/b', message: 'is required' },
    ]);
  });
});
