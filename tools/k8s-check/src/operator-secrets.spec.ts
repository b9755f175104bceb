import { parseOperatorSecrets } from './operator-secrets';

describe('parseOperatorSecrets', () => {
  it('should read secret names and keys from the README table', () => {
    const md = [
      '# Overlay',
      '## Operator-provided Secrets',
      'text',
      '| Secret | Keys | Used by |',
      '|---|---|---|',
      '| `identity-secrets` | `DATABASE_URL` | identity |',
      '| `gateway-secrets` | `OPERATOR_TOKENS`, `EXCHANGE_SIGNING_KEY` | gateway: `name=token` |',
      '## Next section',
      '| `not-this` | `X` | |',
    ].join('\n');
    expect(parseOperatorSecrets(md)).toEqual({
      'identity-secrets': ['DATABASE_URL'],
      'gateway-secrets': ['OPERATOR_TOKENS', 'EXCHANGE_SIGNING_KEY'],
    });
  });

  it('should fail when the section is missing', () => {
    expect(() => parseOperatorSecrets('# README\n')).toThrow('Operator-provided Secrets');
  });
});
