import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUcpValidator, UCP_SCHEMA_IDS, type UcpSchemaName } from './validator';

const fixture = (name: string): any => JSON.parse(readFileSync(join(__dirname, '../test/fixtures', name), 'utf8'));
const ucp = createUcpValidator();

describe('the vendored schemas', () => {
  it('all compile in every view (strict mode, annotation keywords registered)', () => {
    expect(ucp.schemaIds).toHaveLength(79);
    for (const id of ucp.schemaIds) expect(() => ucp.validate(id, {})).not.toThrow();
    const every = ['dev.ucp.shopping.discount', 'dev.ucp.shopping.fulfillment', 'dev.ucp.shopping.buyer_consent', 'dev.ucp.shopping.ap2_mandate'];
    for (const message of ['create_request', 'update_request', 'complete_request', 'response'] as const) {
      expect(typeof ucp.validateCheckout(message, {}).valid).toBe('boolean');
      expect(typeof ucp.validateCheckout(message, {}, every).valid).toBe('boolean');
    }
  });

  it('rejects an unknown schema name or $id', () => {
    expect(() => ucp.validate('https://ucp.dev/schemas/nope.json', {})).toThrow('unknown UCP schema');
    expect(() => ucp.validate('nope' as UcpSchemaName, {})).toThrow('unknown UCP schema');
  });
});

describe('every fixture validates against its entry point', () => {
  const cases: Array<[UcpSchemaName, string]> = [
    ['business_profile', 'business-profile.json'],
    ['profile', 'business-profile.json'],
    ['platform_profile', 'platform-profile.json'],
    ['profile', 'platform-profile.json'],
    ['checkout_create_request', 'checkout-create-request.json'],
    ['checkout_update_request', 'checkout-update-request.json'],
    ['checkout_complete_request', 'checkout-complete-request.json'],
    ['checkout_response', 'checkout-response-incomplete.json'],
    ['checkout_response', 'checkout-response-completed.json'],
    ['checkout_response', 'checkout-error-response.json'],
    ['checkout', 'checkout-response-completed.json'],
    ['error_response', 'checkout-error-response.json'],
    ['order', 'order-webhook.json'],
  ];
  it.each(cases)('%s: %s', (schema, file) => {
    expect(ucp.validate(schema, fixture(file))).toEqual({ valid: true });
  });

  it('with the negotiated extensions composed in', () => {
    const caps = ['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.order'];
    expect(ucp.validateCheckout('create_request', fixture('checkout-create-request.json'), caps)).toEqual({ valid: true });
    expect(ucp.validateCheckout('update_request', fixture('checkout-update-request.json'), caps)).toEqual({ valid: true });
    expect(ucp.validateCheckout('complete_request', fixture('checkout-complete-request.json'), caps)).toEqual({ valid: true });
    expect(ucp.validateCheckout('response', fixture('checkout-response-incomplete.json'), caps)).toEqual({ valid: true });
    expect(ucp.validateCheckout('response', fixture('checkout-error-response.json'), caps)).toEqual({ valid: true });
  });

  it('by $id and $defs fragment as well as by name', () => {
    expect(ucp.validate(UCP_SCHEMA_IDS.order, fixture('order-webhook.json'))).toEqual({ valid: true });
    expect(ucp.validate(`${UCP_SCHEMA_IDS.profile}#/$defs/business_profile`, fixture('business-profile.json'))).toEqual({ valid: true });
  });
});
