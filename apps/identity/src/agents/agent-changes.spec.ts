import { DomainError } from '@exchange/platform';
import { status } from '@grpc/grpc-js';
import { agentFixture } from '../../test/factories/agent.factory';
import { applyChange, planFreeze, planKeyRevocation, planLevelChange, planUnfreeze } from './agent-changes';

const at = new Date('2026-03-01T00:00:00.000Z');

function errorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('agent changes', () => {
  const agent = agentFixture();
  const [primary, secondary] = agent.keys;

  it('should plan a level change as a transition row and apply it', () => {
    const change = planLevelChange(agent, 'MAINNET_BASIC', { transitionId: 'itr_1', reason: 'kyc', actor: 'operator:ops', at });
    expect(change).toEqual({
      kind: 'level_changed',
      transition: {
        transitionId: 'itr_1',
        agentId: agent.agentId,
        fromLevel: 'SANDBOX_UNVERIFIED',
        toLevel: 'MAINNET_BASIC',
        reason: 'kyc',
        actor: 'operator:ops',
        createdAt: at,
      },
    });
    const after = applyChange(agent, change);
    expect(after.identityLevel).toBe('MAINNET_BASIC');
    expect(after.updatedAt).toBe(at);
    expect(agent.identityLevel).toBe('SANDBOX_UNVERIFIED');
  });

  it('should refuse a level change the table does not allow', () => {
    const err = errorOf(() =>
      planLevelChange(agent, 'MAINNET_VERIFIED', { transitionId: 'itr_1', reason: 'r', actor: 'a', at }),
    );
    expect(err.details).toEqual({ current: 'SANDBOX_UNVERIFIED', wanted: 'MAINNET_VERIFIED' });
  });

  it('should revoke a secondary key and keep its reason and time', () => {
    const after = applyChange(agent, planKeyRevocation(agent, secondary.pubkey, 'rotated', at));
    expect(after.keys[1]).toEqual({ ...secondary, status: 'revoked', revokedAt: at, revokedReason: 'rotated' });
    expect(after.keys[0]).toEqual(primary);
  });

  it('should refuse revoking the primary key', () => {
    const err = errorOf(() => planKeyRevocation(agent, primary.pubkey, 'r', at));
    expect(err.grpcCode).toBe(status.FAILED_PRECONDITION);
    expect(err.code).toBe('primary_key_revocation');
  });

  it('should answer key_not_found for a key the agent does not have', () => {
    const err = errorOf(() => planKeyRevocation(agent, 'AAAA', 'r', at));
    expect(err.grpcCode).toBe(status.NOT_FOUND);
    expect(err.code).toBe('key_not_found');
  });

  it('should refuse revoking a revoked key as invalid_state', () => {
    const revoked = applyChange(agent, planKeyRevocation(agent, secondary.pubkey, 'r', at));
    const err = errorOf(() => planKeyRevocation(revoked, secondary.pubkey, 'again', at));
    expect(err.code).toBe('invalid_state');
    expect(err.details).toEqual({ current: 'revoked', wanted: 'revoked' });
  });

  it('should freeze an active agent and unfreeze it again', () => {
    const frozen = applyChange(agent, planFreeze(agent, 'fraud review', at));
    expect(frozen).toMatchObject({ status: 'frozen', frozenReason: 'fraud review', updatedAt: at });
    const thawed = applyChange(frozen, planUnfreeze(frozen, 'cleared', at));
    expect(thawed).toMatchObject({ status: 'active', frozenReason: null });
  });

  it('should refuse freezing a frozen agent and unfreezing an active one', () => {
    const frozen = applyChange(agent, planFreeze(agent, 'r', at));
    expect(errorOf(() => planFreeze(frozen, 'r', at)).details).toEqual({ current: 'frozen', wanted: 'frozen' });
    expect(errorOf(() => planUnfreeze(agent, 'r', at)).details).toEqual({ current: 'active', wanted: 'active' });
  });
});
