import { startBanner } from './banner';

describe('startBanner', () => {
  it('shows the URL, the docs and the operator token, and says when the token was generated', () => {
    const text = startBanner({
      url: 'http://127.0.0.1:8080',
      environment: 'sandbox',
      database: 'embedded PostgreSQL',
      events: 'in-process events',
      operatorToken: 'sbx_abc',
      tokenGenerated: true,
    });
    expect(text).toContain('http://127.0.0.1:8080/api-reference');
    expect(text).toContain('http://127.0.0.1:8080/skill.md');
    expect(text).toMatch(/Operator token: +sbx_abc +\(generated/);
    expect(text).not.toContain('Sandbox merchant');
  });

  it('shows the sandbox merchant when one runs', () => {
    const text = startBanner({
      url: 'http://127.0.0.1:8080',
      environment: 'sandbox',
      database: 'embedded PostgreSQL',
      events: 'in-process events',
      operatorToken: 'sbx_abc',
      tokenGenerated: false,
      sandboxMerchantUrl: 'http://127.0.0.1:8290',
    });
    expect(text).toMatch(/Sandbox merchant: http:\/\/127\.0\.0\.1:8290 .*sandbox-merchant\.local/);
  });
});
