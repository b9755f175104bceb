import type { Operation } from './openapi';
import { escrowHoldIn, escrowViolation, replayViolation, shouldReplay, storedViolation } from './oracles';
import type { RequestCase } from './request-case';

const releaseOp = { key: 'POST /v1/wallets/{agent_id}/holds/{hold_id}/release', method: 'POST', path: '/v1/wallets/{agent_id}/holds/{hold_id}/release', auth: { operator: true, agent: true, anonymous: false } } as Operation;
const caseOf = (target: string, over: Partial<RequestCase> = {}) => ({ op: releaseOp, method: 'POST', target, ...over }) as RequestCase;
const escrow = new Set(['hld_escrow']);

describe('escrow oracle', () => {
  it('finds an escrow hold named by a wallet hold action, encoded or not', () => {
    expect(escrowHoldIn(caseOf('/v1/wallets/a:agent:b/holds/hld_escrow/release'), escrow)).toBe('hld_escrow');
    expect(escrowHoldIn(caseOf('/v1/wallets/a:agent:b/holds/hld%5Fescrow/release?x=1'), escrow)).toBe('hld_escrow');
    expect(escrowHoldIn(caseOf('/v1/wallets/a:agent:b/holds/hld_other/release'), escrow)).toBeNull();
    expect(escrowHoldIn(caseOf('/v1/wallets/a:agent:b/holds/hld_escrow/release', { method: 'GET' }), escrow)).toBeNull();
  });

  it('flags only a success', () => {
    const c = caseOf('/v1/wallets/a:agent:b/holds/hld_escrow/release');
    expect(escrowViolation(c, 200, escrow)?.kind).toBe('escrow_moved');
    expect(escrowViolation(c, 403, escrow)).toBeNull();
  });
});

describe('replay oracle', () => {
  const post = caseOf('/v1/contracts');
  it('replays some successful agent-signed POSTs', () => {
    expect(shouldReplay('agent', post, 201, 3)).toBe(true);
    expect(shouldReplay('agent', post, 201, 4)).toBe(false);
    expect(shouldReplay('operator', post, 201, 3)).toBe(false);
    expect(shouldReplay('agent', post, 400, 3)).toBe(false);
    const publicVerify = caseOf('/ui/casefile/verify', { op: { ...releaseOp, auth: { operator: false, agent: false, anonymous: true } } });
    expect(shouldReplay('agent', publicVerify, 200, 3)).toBe(false);
  });

  it('accepts a refusal or an idempotent replay, flags a second execution', () => {
    expect(replayViolation(401, {})).toBeNull();
    expect(replayViolation(201, { 'idempotent-replayed': 'true' })).toBeNull();
    expect(replayViolation(201, {})?.kind).toBe('replay_accepted');
  });
});

describe('refused upload oracle', () => {
  it('flags a refused upload whose bytes are stored', () => {
    expect(storedViolation(403, 200, 'sha256:x')?.kind).toBe('refused_but_stored');
    expect(storedViolation(403, 404, 'sha256:x')).toBeNull();
    expect(storedViolation(201, 200, 'sha256:x')).toBeNull();
  });
});
