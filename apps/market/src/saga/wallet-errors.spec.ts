import { Metadata, status } from '@grpc/grpc-js';
import { errors } from '@exchange/platform';
import { asDomainError, errorInfoFromGrpc, isDefiniteFailure } from './wallet-errors';

function serviceError(code: status, errorCode?: string) {
  const metadata = new Metadata();
  if (errorCode) metadata.set('x-error-code', errorCode);
  return Object.assign(new Error('wallet said no'), { code, details: 'wallet said no', metadata });
}

describe('wallet failures', () => {
  it('should treat an answer with an x-error-code as definite, whatever its status', () => {
    expect(isDefiniteFailure(serviceError(status.FAILED_PRECONDITION, 'insufficient_funds'))).toBe(true);
    expect(isDefiniteFailure(serviceError(status.UNAVAILABLE, 'kill_switch:settlements'))).toBe(true);
    expect(isDefiniteFailure(errors.invalidArgument('x', 'y'))).toBe(true);
  });

  it('should treat a failure without one (unreachable, deadline) as unknown', () => {
    expect(isDefiniteFailure(serviceError(status.UNAVAILABLE))).toBe(false);
    expect(isDefiniteFailure(serviceError(status.DEADLINE_EXCEEDED))).toBe(false);
    expect(isDefiniteFailure(new Error('boom'))).toBe(false);
  });

  it('should give the wallet refusal back with its code and status', () => {
    const err = asDomainError(errorInfoFromGrpc(serviceError(status.FAILED_PRECONDITION, 'insufficient_funds')));
    expect(err).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds', message: 'wallet said no' });
  });
});
