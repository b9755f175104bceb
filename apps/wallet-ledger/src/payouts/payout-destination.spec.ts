import { validateDestination } from './payout-destination';

describe('validateDestination', () => {
  const key = Buffer.alloc(32, 7).toString('base64');

  it('should refuse a crypto address that is a signing key, in hex too', () => {
    expect(() => validateDestination('crypto_address', { address: Buffer.alloc(32, 7).toString('hex') }, [key])).toThrow(
      expect.objectContaining({ code: 'signing_key_reuse' }),
    );
  });

  it('should want an address for crypto and bounded details', () => {
    expect(() => validateDestination('crypto_address', {}, [key])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => validateDestination('bank_account', { iban: 'x'.repeat(513) }, [])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => validateDestination('sandbox', { simulate: 'fail' }, [key])).not.toThrow();
  });
});
