// Hand-made UCP business profiles for fixture merchants (valid unless a test breaks them), and the
// RFC 9421 B.1.3 test key (test-key-ecc-p256, a published test key) such a merchant signs with.

export const UCP_VERSION = '2026-04-08';

export const B13_PUBLIC_JWK = {
  kid: 'test-key-ecc-p256',
  kty: 'EC',
  crv: 'P-256',
  x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA',
  y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0',
};
export const B13_PRIVATE_JWK = { ...B13_PUBLIC_JWK, d: 'UpuF81l-kOxbjf7T4mNSv0r5tN67Gim7rnf6EFpcYDs' };

const spec = (page: string) => `https://ucp.dev/${UCP_VERSION}/specification/${page}`;

export function businessProfile(endpoint: string, opts: { capabilities?: Record<string, unknown>; version?: string } = {}): Record<string, unknown> {
  return {
    ucp: {
      version: opts.version ?? UCP_VERSION,
      services: { 'dev.ucp.shopping': [{ version: opts.version ?? UCP_VERSION, spec: spec('overview'), transport: 'rest', endpoint }] },
      capabilities: opts.capabilities ?? {
        'dev.ucp.shopping.checkout': [{ version: UCP_VERSION, spec: spec('checkout') }],
        'dev.ucp.shopping.discount': [{ version: UCP_VERSION, spec: spec('discount'), extends: 'dev.ucp.shopping.checkout' }],
      },
      payment_handlers: { 'com.example.pay': [{ id: 'example_pay', version: UCP_VERSION }] },
    },
    signing_keys: [B13_PUBLIC_JWK],
  };
}
