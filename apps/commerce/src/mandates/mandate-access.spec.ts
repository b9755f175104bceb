import { DomainError } from '@exchange/platform';
import { canRead, readable, requireActingSigner, requireCaller, requireChangeable, requireSigner } from './mandate-access';

const m = { mandateId: 'mdt_1', signerAgentId: 'agt_s', agentId: 'agt_b' };
const agent = (agentId: string) => ({ agentId, operator: false });
const operator = { agentId: null, operator: true };
const nobody = { agentId: null, operator: false };

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  return 'none';
}

describe('mandate access', () => {
  it('should let the signer, the granted agent and the operator read, and no one else', () => {
    expect(canRead(m, agent('agt_s'))).toBe(true);
    expect(canRead(m, agent('agt_b'))).toBe(true);
    expect(canRead(m, operator)).toBe(true);
    expect(canRead(m, agent('agt_x'))).toBe(false);
    expect(canRead(m, nobody)).toBe(false);
  });

  it('should answer a non-party like an unknown mandate (404 mandate_not_found)', () => {
    expect(codeOf(() => readable(m, 'mdt_1', agent('agt_x')))).toBe('mandate_not_found');
    expect(codeOf(() => readable(null, 'mdt_1', operator))).toBe('mandate_not_found');
    expect(readable(m, 'mdt_1', agent('agt_b'))).toBe(m);
  });

  it('should let only the signer change autonomy', () => {
    expect(codeOf(() => requireSigner(m, agent('agt_s')))).toBe('none');
    expect(codeOf(() => requireSigner(m, agent('agt_b')))).toBe('not_mandate_signer');
    expect(codeOf(() => requireSigner(m, operator))).toBe('not_mandate_signer');
  });

  it('should let only the acting signer create', () => {
    expect(codeOf(() => requireActingSigner('agt_s', agent('agt_s')))).toBe('none');
    expect(codeOf(() => requireActingSigner('agt_s', agent('agt_b')))).toBe('acting_agent_mismatch');
    expect(codeOf(() => requireActingSigner('agt_s', operator))).toBe('acting_agent_mismatch');
    expect(codeOf(() => requireActingSigner('agt_s', { agentId: 'agt_s', operator: true }))).toBe('acting_agent_mismatch');
  });

  it('should need an agent or the operator to list', () => {
    expect(codeOf(() => requireCaller(nobody))).toBe('forbidden');
    expect(codeOf(() => requireCaller(operator))).toBe('none');
  });

  it('should keep a revoked or expired mandate\'s settings final', () => {
    expect(codeOf(() => requireChangeable(m, 'revoked'))).toBe('mandate_inactive');
    expect(codeOf(() => requireChangeable(m, 'expired'))).toBe('mandate_inactive');
    for (const status of ['active', 'paused', 'exhausted'] as const) expect(codeOf(() => requireChangeable(m, status))).toBe('none');
  });
});
