import { Metadata, status } from '@grpc/grpc-js';
import { domainErrorStatus, errors } from '@exchange/platform';
import { problemFromGrpcError } from './error-mapping';
import { problemBody } from './problem';
import { pointerOfField, withValidationErrors } from './validation-problem';

/** A service's DomainError as the gateway receives it: status, message and the trailers it sent. */
function asReceived(err: ReturnType<typeof errors.invalidArgument>) {
  const s = domainErrorStatus(err);
  return Object.assign(new Error(s.details), { code: s.code, details: s.details, metadata: s.metadata as Metadata });
}

describe('pointerOfField', () => {
  it('should turn dotted service field names into RFC 6901 pointers, escaping ~ and /', () => {
    expect(pointerOfField('budget')).toBe('/budget');
    expect(pointerOfField('payload.fixture_id')).toBe('/payload/fixture_id');
    expect(pointerOfField('details.address')).toBe('/details/address');
    expect(pointerOfField('a~b/c')).toBe('/a~0b~1c');
    expect(pointerOfField('')).toBe('');
  });
});

describe('withValidationErrors', () => {
  it('should turn a service field into errors[] and drop `field` from the members', () => {
    expect(withValidationErrors({ status: 400, code: 'validation_failed', detail: 'reason must be 1-500 characters', extras: { field: 'reason' } })).toEqual({
      status: 400,
      code: 'validation_failed',
      detail: 'reason must be 1-500 characters',
      errors: [{ pointer: '/reason', message: 'reason must be 1-500 characters' }],
    });
  });

  it('should keep other members and take errors[] sent by a service as they are', () => {
    const out = withValidationErrors({
      status: 400,
      code: 'validation_failed',
      detail: 'bad',
      extras: { errors: [{ pointer: '/a', message: 'x' }], acting_agent: 'a:agent:b' },
    });
    expect(out).toEqual({ status: 400, code: 'validation_failed', detail: 'bad', errors: [{ pointer: '/a', message: 'x' }], extras: { acting_agent: 'a:agent:b' } });
  });

  it('should name the whole request when nothing names a field, and leave gateway errors[] alone', () => {
    expect(withValidationErrors({ status: 400, code: 'validation_failed', detail: 'give one of a and b' }).errors).toEqual([{ pointer: '', message: 'give one of a and b' }]);
    const gateway = { status: 400, code: 'validation_failed', detail: 'body/limit must be >= 1', errors: [{ pointer: '/limit', message: 'must be >= 1' }] };
    expect(withValidationErrors(gateway)).toEqual(gateway);
  });

  it('should not touch other codes, even with a field', () => {
    const other = { status: 400, code: 'unsupported_currency', detail: 'no', extras: { field: 'price' } };
    expect(withValidationErrors(other)).toBe(other);
  });
});

describe('a service validation error through the gateway (trailer → problem body)', () => {
  it.each([
    ['market', errors.invalidArgument('validation_failed', 'budget is required', { field: 'budget' }), '/budget'],
    ['registry', errors.invalidArgument('validation_failed', 'type must be one of …', { field: 'payload.type' }), '/payload/type'],
    ['wallet-ledger', errors.invalidArgument('validation_failed', 'a crypto_address destination needs details.address', { field: 'details.address' }), '/details/address'],
    ['identity (no field)', errors.invalidArgument('validation_failed', 'contract_id, role and agent_id are required'), ''],
  ])('%s: errors[] of {pointer, message}, no `field`', (_service, err, pointer) => {
    const body = problemBody(problemFromGrpcError(asReceived(err)), 'req_1');
    expect(body).toEqual({
      type: 'https://agent-exchange.dev/errors/validation_failed',
      title: 'Bad Request',
      status: 400,
      detail: err.message,
      code: 'validation_failed',
      request_id: 'req_1',
      errors: [{ pointer, message: err.message }],
    });
    expect(err.grpcCode).toBe(status.INVALID_ARGUMENT);
  });
});
