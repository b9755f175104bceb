import { Metadata, status } from '@grpc/grpc-js';
import { asciiEscape, domainErrorStatus, readErrorDetails, wellFormedMessage } from './error-trailer';
import { errors } from './errors';

describe('error trailers', () => {
  it('should put details that echo input in a binary trailer grpc-js accepts, and read them back', () => {
    const details = { field: 'amount', value: 'é ١٢ 🚀 \u0000' };
    const s = domainErrorStatus(errors.invalidArgument('amount_invalid', 'bad', details));
    expect(s.code).toBe(status.INVALID_ARGUMENT);
    const sent = s.metadata.get('x-error-details-bin')[0];
    expect(Buffer.isBuffer(sent)).toBe(true);
    expect(readErrorDetails(s.metadata)).toEqual(details);
  });

  it('should ASCII-escape the code', () => {
    expect(asciiEscape('kill_switch:é\u0000')).toBe('kill_switch:\\u00e9\\u0000');
    expect(() => domainErrorStatus(errors.invalidArgument('bad_é', 'x'))).not.toThrow();
  });

  it('should replace lone surrogates in the message and keep the rest', () => {
    expect(wellFormedMessage('a\ud800b 🚀 \udc00')).toBe('a\ufffdb 🚀 \ufffd');
    expect(() => encodeURI(wellFormedMessage('x\ud800'))).not.toThrow();
  });

  it('should drop malformed or non-object details', () => {
    const m = new Metadata();
    m.set('x-error-details-bin', Buffer.from('{not json'));
    expect(readErrorDetails(m)).toBeUndefined();
    const arr = new Metadata();
    arr.set('x-error-details-bin', Buffer.from('[1]'));
    expect(readErrorDetails(arr)).toBeUndefined();
    expect(readErrorDetails(undefined)).toBeUndefined();
  });
});
