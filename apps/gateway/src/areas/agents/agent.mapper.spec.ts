import { identityV1 } from '@exchange/proto';
import {
  agentToJson,
  identityLevelFromJson,
  identityLevelToJson,
  MissingAgentError,
  nextCursorToJson,
  normalizePubkeyParam,
  transitionToJson,
} from './agent.mapper';

const { IdentityLevel, AgentStatus, KeyStatus } = identityV1;
const t0 = new Date('2026-11-21T18:00:00.000Z');
const t1 = new Date('2026-11-22T09:30:00.000Z');

describe('agentToJson', () => {
  it('should map enums, dates and optionals, and list non-primary keys in pubkey_set', () => {
    const agent: identityV1.Agent = {
      agentId: 'acme:agent:a',
      primaryPubkey: 'P',
      keys: [
        { pubkey: 'P', primary: true, status: KeyStatus.KEY_STATUS_ACTIVE, addedAt: t0 },
        { pubkey: 'Q', primary: false, status: KeyStatus.KEY_STATUS_REVOKED, addedAt: t0, revokedAt: t1, revokedReason: 'lost' },
        { pubkey: 'R', primary: false, status: KeyStatus.KEY_STATUS_ACTIVE, addedAt: t0 },
      ],
      identityLevel: IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED,
      status: AgentStatus.AGENT_STATUS_FROZEN,
      frozenReason: 'review',
      createdAt: t0,
      updatedAt: t1,
    };
    expect(agentToJson(agent)).toEqual({
      agent_id: 'acme:agent:a',
      primary_pubkey: 'P',
      pubkey_set: ['Q', 'R'],
      keys: [
        { pubkey: 'P', primary: true, status: 'active', added_at: '2026-11-21T18:00:00.000Z', revoked_at: null, revoked_reason: null },
        { pubkey: 'Q', primary: false, status: 'revoked', added_at: '2026-11-21T18:00:00.000Z', revoked_at: '2026-11-22T09:30:00.000Z', revoked_reason: 'lost' },
        { pubkey: 'R', primary: false, status: 'active', added_at: '2026-11-21T18:00:00.000Z', revoked_at: null, revoked_reason: null },
      ],
      identity_level: 'MAINNET_ATTESTED',
      status: 'frozen',
      frozen_reason: 'review',
      created_at: '2026-11-21T18:00:00.000Z',
      updated_at: '2026-11-22T09:30:00.000Z',
    });
  });

  it('should give null frozen_reason for an active agent and refuse a missing agent', () => {
    const json = agentToJson({
      agentId: 'a:agent:b', primaryPubkey: 'P', keys: [], identityLevel: IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
      status: AgentStatus.AGENT_STATUS_ACTIVE, createdAt: t0, updatedAt: t0,
    });
    expect(json.frozen_reason).toBeNull();
    expect(json.status).toBe('active');
    expect(() => agentToJson(undefined)).toThrow(MissingAgentError);
  });
});

describe('identity level mapping', () => {
  it('should round-trip every level and map UNSPECIFIED to null', () => {
    for (const name of ['SANDBOX_UNVERIFIED', 'MAINNET_BASIC', 'MAINNET_ATTESTED', 'MAINNET_VERIFIED', 'MAINNET_INSTITUTIONAL'] as const) {
      expect(identityLevelToJson(identityLevelFromJson(name))).toBe(name);
      expect(IdentityLevel[identityLevelFromJson(name)]).toBe(`IDENTITY_LEVEL_${name}`);
    }
    expect(identityLevelToJson(IdentityLevel.IDENTITY_LEVEL_UNSPECIFIED)).toBeNull();
    expect(identityLevelFromJson(undefined)).toBe(IdentityLevel.IDENTITY_LEVEL_UNSPECIFIED);
  });
});

describe('transitionToJson', () => {
  it('should map a registration transition with a null from_level', () => {
    expect(
      transitionToJson({
        transitionId: 'itr_1', agentId: 'a:agent:b', fromLevel: IdentityLevel.IDENTITY_LEVEL_UNSPECIFIED,
        toLevel: IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC, reason: 'r', actor: 'operator:default', createdAt: t0,
      }),
    ).toEqual({
      transition_id: 'itr_1', agent_id: 'a:agent:b', from_level: null, to_level: 'MAINNET_BASIC', reason: 'r',
      actor: 'operator:default', created_at: '2026-11-21T18:00:00.000Z',
    });
  });
});

describe('nextCursorToJson', () => {
  it('should turn an empty cursor into null', () => {
    expect(nextCursorToJson({ nextCursor: '' })).toBeNull();
    expect(nextCursorToJson(undefined)).toBeNull();
    expect(nextCursorToJson({ nextCursor: 'abc' })).toBe('abc');
  });
});

describe('normalizePubkeyParam', () => {
  it('should turn base64url into padded standard base64 and leave standard base64 alone', () => {
    const std = Buffer.alloc(32, 0xfb).toString('base64');
    const url = Buffer.alloc(32, 0xfb).toString('base64url');
    expect(url).not.toBe(std);
    expect(normalizePubkeyParam(url)).toBe(std);
    expect(normalizePubkeyParam(std)).toBe(std);
  });
});
