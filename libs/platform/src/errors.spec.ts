import { status } from '@grpc/grpc-js';
import { DomainError, errors, isDomainError } from './errors';

describe('errors', () => {
  it('should build not found with the entity-derived code and message', () => {
    const err = errors.notFound('agent', 'acme:agent:alpha');
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toBeInstanceOf(Error);
    expect(err.grpcCode).toBe(status.NOT_FOUND);
    expect(err.code).toBe('agent_not_found');
    expect(err.message).toBe('agent acme:agent:alpha not found');
    expect(isDomainError(err)).toBe(true);
    expect(isDomainError(new Error('x'))).toBe(false);
  });

  it('should build invalid_state with current and wanted in details', () => {
    const err = errors.invalidState('agent', 'frozen', 'frozen');
    expect(err.grpcCode).toBe(status.FAILED_PRECONDITION);
    expect(err.code).toBe('invalid_state');
    expect(err.details).toEqual({ current: 'frozen', wanted: 'frozen' });
  });

  it.each([
    ['invalidArgument', errors.invalidArgument('validation_failed', 'm', { a: 1 }), status.INVALID_ARGUMENT],
    ['alreadyExists', errors.alreadyExists('agent_id_exists', 'agent_id already exists'), status.ALREADY_EXISTS],
    ['failedPrecondition', errors.failedPrecondition('insufficient_funds', 'm'), status.FAILED_PRECONDITION],
    ['permissionDenied', errors.permissionDenied('agent_frozen', 'm'), status.PERMISSION_DENIED],
    ['unauthenticated', errors.unauthenticated('unauthenticated', 'm'), status.UNAUTHENTICATED],
    ['resourceExhausted', errors.resourceExhausted('faucet_cap_exceeded', 'm', { resets_at: 'x' }), status.RESOURCE_EXHAUSTED],
    ['unavailable', errors.unavailable('read_only', 'm'), status.UNAVAILABLE],
    ['aborted', errors.aborted('conflict', 'm'), status.ABORTED],
  ])('%s should carry its gRPC status', (_name, err, expected) => {
    expect(err.grpcCode).toBe(expected);
  });

  it('should keep code, message and details as given', () => {
    const err = errors.invalidArgument('validation_failed', 'bad body', { errors: [{ pointer: '/a', message: 'x' }] });
    expect(err.code).toBe('validation_failed');
    expect(err.message).toBe('bad body');
    expect(err.details).toEqual({ errors: [{ pointer: '/a', message: 'x' }] });
  });
});
