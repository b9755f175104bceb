import { HttpProblem } from './problem';
import { guardProblem } from './integrity-guard';

const snapshot = (...enabled: string[]) => ({ readOnly: enabled.includes('read_only'), enabledSwitches: new Set(enabled) });
const codeOf = (p: HttpProblem | null) => (p === null ? null : p.problem.code);

describe('guardProblem', () => {
  it('should refuse every /v1 mutation in read-only mode with 503 read_only', () => {
    for (const [method, url] of [
      ['POST', '/v1/contracts'],
      ['POST', '/v1/wallets/:agent_id/transfer'],
      ['POST', '/v1/coordination/threads'],
      ['POST', '/v1/commerce/ucp/checkout/:commerce_session_id/complete'],
      ['POST', '/v1/commerce/ucp/webhooks/orders'],
      ['PUT', '/v1/mandates/:mandate_id/autonomy'],
      ['DELETE', '/v1/anything'],
    ]) {
      const p = guardProblem(method!, url!, snapshot('read_only'));
      expect({ url, status: p?.problem.status, code: codeOf(p) }).toEqual({ url, status: 503, code: 'read_only' });
    }
  });

  it('should let reads, the integrity POSTs and the read-only POSTs through', () => {
    for (const [method, url] of [
      ['GET', '/v1/contracts'],
      ['POST', '/v1/market-integrity/kill-switches'],
      ['POST', '/v1/market-integrity/state'],
      ['POST', '/v1/attestations/query'],
      ['POST', '/v1/casefiles/verify'],
      ['POST', '/ui/casefile/verify'],
      ['POST', '/v1/commerce/ucp/negotiate'],
      ['POST', '/v1/commerce/ucp/webhooks/verify'],
      ['POST', '/v1/commerce/ucp/checkout/:commerce_session_id/casefile/verify'],
    ]) {
      expect({ url, code: codeOf(guardProblem(method!, url!, snapshot('read_only'))) }).toEqual({ url, code: null });
    }
  });

  it.each([
    ['new_contracts', '/v1/contracts'],
    ['awards', '/v1/contracts/:contract_id/award/:offer_id'],
    ['faucet', '/v1/wallets/:agent_id/faucet'],
    ['withdrawals', '/v1/wallets/:agent_id/withdrawals'],
  ])('should answer kill_switch:%s on its route only', (name, url) => {
    expect(codeOf(guardProblem('POST', url, snapshot(name)))).toBe(`kill_switch:${name}`);
    expect(codeOf(guardProblem('POST', '/v1/listings', snapshot(name)))).toBeNull();
    expect(codeOf(guardProblem('POST', url, snapshot()))).toBeNull();
  });

  it('should leave settlements to the services (no single route)', () => {
    expect(codeOf(guardProblem('POST', '/v1/contracts/:contract_id/verify', snapshot('settlements')))).toBeNull();
  });
});
