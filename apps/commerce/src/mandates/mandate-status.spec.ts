import type { MandateStatus } from './mandate.model';
import { settableStatus, statusMove } from './mandate-status';

const m = { mandateId: 'mdt_1', signerAgentId: 'acme:agent:signer' };
const signer = { agentId: 'acme:agent:signer', operator: false };
const agent = { agentId: 'acme:agent:buyer', operator: false };
const operator = { agentId: null, operator: true };
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as { code: string }).code;
  }
};

describe('mandate status moves', () => {
  it('lets the signer pause, resume and revoke', () => {
    expect(statusMove(m, 'active', 'paused', signer)).toBe('paused');
    expect(statusMove(m, 'paused', 'active', signer)).toBe('active');
    expect(statusMove(m, 'active', 'revoked', signer)).toBe('revoked');
    expect(statusMove(m, 'paused', 'revoked', signer)).toBe('revoked');
  });

  it('answers null for the status it already has', () => {
    expect(statusMove(m, 'paused', 'paused', signer)).toBeNull();
    expect(statusMove(m, 'revoked', 'revoked', operator)).toBeNull();
  });

  it('lets the operator pause and revoke but not resume; nobody else', () => {
    expect(statusMove(m, 'active', 'paused', operator)).toBe('paused');
    expect(statusMove(m, 'active', 'revoked', operator)).toBe('revoked');
    expect(code(() => statusMove(m, 'paused', 'active', operator))).toBe('not_mandate_signer');
    expect(code(() => statusMove(m, 'active', 'paused', agent))).toBe('not_mandate_signer');
  });

  it('keeps revoked, expired and exhausted final (409)', () => {
    for (const current of ['revoked', 'expired', 'exhausted'] as MandateStatus[]) {
      expect(code(() => statusMove(m, current, 'active', signer))).toBe('invalid_state');
    }
    expect(code(() => statusMove(m, 'expired', 'revoked', signer))).toBe('invalid_state');
  });

  it('refuses a status that cannot be set', () => {
    expect(settableStatus('paused')).toBe('paused');
    expect(code(() => settableStatus('expired'))).toBe('validation_failed');
    expect(code(() => settableStatus(undefined))).toBe('validation_failed');
  });
});
