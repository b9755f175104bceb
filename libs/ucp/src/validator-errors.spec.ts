import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUcpValidator } from './validator';

const fixture = (name: string): any => JSON.parse(readFileSync(join(__dirname, '../test/fixtures', name), 'utf8'));
const ucp = createUcpValidator();
const DISCOUNT = ['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount'];

/** The pointers of a failed validation (the test fails if it passed). */
function pointers(result: ReturnType<typeof ucp.validate>): string[] {
  if (result.valid) throw new Error('expected the value to be invalid');
  return result.errors.map((e) => e.pointer);
}

describe('malformed profiles fail with pointers to the field', () => {
  it('business profile without services', () => {
    const profile = fixture('business-profile.json');
    delete profile.ucp.services;
    expect(pointers(ucp.validate('business_profile', profile))).toContain('/ucp/services');
  });

  it('a rest service without endpoint', () => {
    const profile = fixture('business-profile.json');
    delete profile.ucp.services['dev.ucp.shopping'][0].endpoint;
    expect(pointers(ucp.validate('business_profile', profile))).toContain('/ucp/services/dev.ucp.shopping/0/endpoint');
  });

  it('a non-date version such as "draft"', () => {
    const profile = fixture('business-profile.json');
    profile.ucp.version = 'draft';
    const result = ucp.validate('business_profile', profile);
    expect(result).toEqual({ valid: false, errors: expect.arrayContaining([{ pointer: '/ucp/version', message: 'must match pattern "^\\d{4}-\\d{2}-\\d{2}$"' }]) });
  });

  it('a capability name that is not reverse-DNS (pointer escaped per RFC 6901)', () => {
    const profile = fixture('business-profile.json');
    profile.ucp.capabilities['Bad~Name/x'] = [{ version: '2026-04-08' }];
    expect(pointers(ucp.validate('business_profile', profile))).toContain('/ucp/capabilities/Bad~0Name~1x');
  });

  it('a platform capability without spec/schema (required of platforms only)', () => {
    const profile = fixture('platform-profile.json');
    delete profile.ucp.capabilities['dev.ucp.shopping.checkout'][0].schema;
    expect(pointers(ucp.validate('platform_profile', profile))).toContain('/ucp/capabilities/dev.ucp.shopping.checkout/0/schema');
    expect(ucp.validate('business_profile', { ...profile, ucp: { ...profile.ucp, services: { 'dev.ucp.shopping': [{ version: '2026-04-08', transport: 'embedded' }] } } })).toEqual({ valid: true });
  });

  it('a signing key without kid', () => {
    const profile = fixture('business-profile.json');
    delete profile.signing_keys[0].kid;
    expect(pointers(ucp.validate('business_profile', profile))).toContain('/signing_keys/0/kid');
  });

  it('not an object at all', () => {
    expect(pointers(ucp.validate('profile', 'hello'))).toContain('');
  });
});

describe('malformed checkout requests', () => {
  it('create without line_items', () => {
    expect(pointers(ucp.validate('checkout_create_request', { buyer: { email: 'a@b.c' } }))).toEqual(['/line_items']);
  });

  it('a quantity that is not an integer ≥ 1', () => {
    const body = fixture('checkout-create-request.json');
    body.line_items[0].quantity = '2';
    expect(pointers(ucp.validate('checkout_create_request', body))).toContain('/line_items/0/quantity');
    body.line_items[0].quantity = 0;
    expect(pointers(ucp.validate('checkout_create_request', body))).toContain('/line_items/0/quantity');
  });

  it('a line item without item id', () => {
    const body = fixture('checkout-update-request.json');
    delete body.line_items[1].item.id;
    expect(pointers(ucp.validate('checkout_update_request', body))).toEqual(['/line_items/1/item/id']);
  });

  it('complete without payment, and an instrument without handler_id', () => {
    expect(pointers(ucp.validate('checkout_complete_request', {}))).toEqual(['/payment']);
    const body = fixture('checkout-complete-request.json');
    delete body.payment.instruments[0].handler_id;
    expect(pointers(ucp.validate('checkout_complete_request', body))).toContain('/payment/instruments/0/handler_id');
  });

  it('discount codes that are not strings, only once the extension is negotiated', () => {
    const body = { ...fixture('checkout-create-request.json'), discounts: { codes: [10] } };
    expect(ucp.validateCheckout('create_request', body)).toEqual({ valid: true });
    expect(pointers(ucp.validateCheckout('create_request', body, DISCOUNT))).toEqual(['/discounts/codes/0']);
  });

  it('a request body is not a checkout response (response-only fields are required there)', () => {
    expect(pointers(ucp.validate('checkout', fixture('checkout-create-request.json')))).toEqual(
      expect.arrayContaining(['/ucp', '/id', '/status', '/currency', '/totals', '/links', '/line_items/0/id', '/line_items/0/totals']),
    );
  });
});

describe('malformed checkout responses', () => {
  const response = () => fixture('checkout-response-incomplete.json');

  it('a status outside the enum', () => {
    expect(pointers(ucp.validate('checkout_response', { ...response(), status: 'pending' }))).toEqual(['/status']);
  });

  it('a positive discount total, and a missing total', () => {
    const body = response();
    body.totals[1].amount = 700;
    expect(pointers(ucp.validate('checkout_response', body))).toContain('/totals/1/amount');
    body.totals = body.totals.filter((t: { type: string }) => t.type !== 'total');
    expect(pointers(ucp.validate('checkout_response', body))).toContain('/totals');
  });

  it('two subtotals', () => {
    const body = response();
    body.totals.push({ type: 'subtotal', amount: 1 });
    expect(pointers(ucp.validate('checkout_response', body))).toEqual(['/totals']);
  });

  it('an unknown total type without display_text', () => {
    const body = response();
    body.totals.splice(2, 0, { type: 'gift_wrap', amount: 0 });
    expect(pointers(ucp.validate('checkout_response', body))).toEqual(['/totals/2/display_text']);
  });

  it('payment_handlers missing from the ucp metadata', () => {
    const body = response();
    delete body.ucp.payment_handlers;
    expect(pointers(ucp.validate('checkout_response', body))).toEqual(['/ucp/payment_handlers']);
  });

  it('a negative applied discount, only once the extension is negotiated', () => {
    const body = response();
    body.discounts.applied[0].amount = -700;
    expect(ucp.validateCheckout('response', body)).toEqual({ valid: true });
    expect(pointers(ucp.validateCheckout('response', body, DISCOUNT))).toEqual(['/discounts/applied/0/amount']);
  });

  it('an error response with an extra field or no messages', () => {
    const body = fixture('checkout-error-response.json');
    expect(pointers(ucp.validate('checkout_response', { ...body, extra: 1 }))).toEqual(['/extra']);
    expect(pointers(ucp.validate('checkout_response', { ...body, messages: [] }))).toEqual(['/messages']);
  });

  it('an error message without severity', () => {
    const body = fixture('checkout-error-response.json');
    delete body.messages[0].severity;
    expect(pointers(ucp.validate('error_response', body))).toContain('/messages/0/severity');
  });
});
