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
  });
});
