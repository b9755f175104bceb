import { identityV1 } from '@exchange/proto';
import { agentFixture } from '../../test/factories/agent.factory';
import { IDENTITY_LEVELS } from './agent.model';
import { fromProtoLevel, fromProtoStatus, pageInfo, pageQuery, toProtoAgent, toProtoLevel, toProtoTransition } from './agents.mapper';

describe('identity mapper', () => {
  it.each(IDENTITY_LEVELS)('should round-trip level %s through its proto enum name', (level) => {
    expect(identityV1.identityLevelToJSON(toProtoLevel(level))).toBe(`IDENTITY_LEVEL_${level}`);
    expect(fromProtoLevel(toProtoLevel(level))).toBe(level);
  });

  it('should read UNSPECIFIED as "not given" and refuse unknown enum numbers', () => {
    expect(fromProtoLevel(identityV1.IdentityLevel.IDENTITY_LEVEL_UNSPECIFIED)).toBeNull();
    expect(() => fromProtoLevel(42 as identityV1.IdentityLevel)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(fromProtoStatus(identityV1.AgentStatus.AGENT_STATUS_UNSPECIFIED)).toBeNull();
    expect(fromProtoStatus(identityV1.AgentStatus.AGENT_STATUS_FROZEN)).toBe('frozen');
    expect(() => fromProtoStatus(9 as identityV1.AgentStatus)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });

  it('should map an agent with a revoked key and a freeze', () => {
    const base = agentFixture();
    const revokedAt = new Date('2026-02-02T00:00:00.000Z');
    const agent = {
      ...base,
      status: 'frozen' as const,
      frozenReason: 'review',
      keys: [base.keys[0], { ...base.keys[1], status: 'revoked' as const, revokedAt, revokedReason: 'lost' }],
    };
    expect(toProtoAgent(agent)).toEqual({
      agentId: agent.agentId,
      primaryPubkey: agent.primaryPubkey,
      keys: [
        { pubkey: base.keys[0].pubkey, primary: true, status: identityV1.KeyStatus.KEY_STATUS_ACTIVE, addedAt: base.createdAt, revokedAt: undefined, revokedReason: undefined },
        { pubkey: base.keys[1].pubkey, primary: false, status: identityV1.KeyStatus.KEY_STATUS_REVOKED, addedAt: base.createdAt, revokedAt, revokedReason: 'lost' },
      ],
      identityLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
      status: identityV1.AgentStatus.AGENT_STATUS_FROZEN,
      frozenReason: 'review',
      createdAt: base.createdAt,
      updatedAt: base.updatedAt,
    });
    // The wire format carries it intact.
    const decoded = identityV1.Agent.decode(identityV1.Agent.encode(toProtoAgent(agent)).finish());
    expect(decoded.keys[1].revokedReason).toBe('lost');
    expect(decoded.frozenReason).toBe('review');
  });

  it('should map a transition', () => {
    const at = new Date('2026-02-03T00:00:00.000Z');
    expect(
      toProtoTransition({ transitionId: 'itr_1', agentId: 'a:agent:b', fromLevel: 'MAINNET_BASIC', toLevel: 'SANDBOX_UNVERIFIED', reason: 'r', actor: 'operator:x', createdAt: at }),
    ).toEqual({
      transitionId: 'itr_1',
      agentId: 'a:agent:b',
      fromLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC,
      toLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
      reason: 'r',
      actor: 'operator:x',
      createdAt: at,
    });
  });

  it('should treat empty proto page fields as absent', () => {
    expect(pageQuery(undefined)).toEqual({ limit: null, cursor: null });
    expect(pageQuery({ limit: 0, cursor: '' })).toEqual({ limit: null, cursor: null });
    expect(pageQuery({ limit: 5, cursor: 'abc' })).toEqual({ limit: 5, cursor: 'abc' });
    expect(pageInfo(null)).toEqual({ nextCursor: '' });
  });
});
