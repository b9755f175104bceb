import { status } from '@grpc/grpc-js';
import { identityV1 } from '@exchange/proto';
import { sign, toBase64 } from '@exchange/crypto';
import { newKey, signedRegistration } from './factories/agent.factory';
import { grpcError, outboxTypes, registerRequest, startTestIdentity, type TestIdentity } from './identity-harness';

const { IdentityLevel: L, AgentStatus, KeyStatus } = identityV1;
const OPERATOR = { actor: 'operator:ops' };

describe('identity gRPC: level changes, keys, freezes, signatures', () => {
  let t: TestIdentity;

  beforeAll(async () => {
    t = await startTestIdentity({ name: 'identity_changes' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function register(extraKeys = 0) {
    const reg = signedRegistration({ extraKeys });
    await t.client.registerAgent(registerRequest(reg.input), OPERATOR);
    return reg;
  }

  describe('ChangeIdentityLevel', () => {
    it('should go up one step at a time, down any number, and list the history newest first', async () => {
      const { input } = await register();
      const agentId = input.agentId;
      const change = (level: identityV1.IdentityLevel, reason: string) =>
        t.client.changeIdentityLevel({ agentId, identityLevel: level, reason }, OPERATOR);

      const up = await change(L.IDENTITY_LEVEL_MAINNET_BASIC, 'kyc basic');
      expect(up.agent!.identityLevel).toBe(L.IDENTITY_LEVEL_MAINNET_BASIC);
      expect(up.transition).toMatchObject({
        agentId,
        fromLevel: L.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
        toLevel: L.IDENTITY_LEVEL_MAINNET_BASIC,
        reason: 'kyc basic',
        actor: 'operator:ops',
      });
      expect(up.transition!.transitionId).toMatch(/^itr_[0-9a-f-]{36}$/);
      await change(L.IDENTITY_LEVEL_MAINNET_ATTESTED, 'attested');
      await change(L.IDENTITY_LEVEL_MAINNET_VERIFIED, 'verified');

      const skip = await grpcError(change(L.IDENTITY_LEVEL_SANDBOX_UNVERIFIED + 10, 'bogus'));
      expect(skip.code).toBe('validation_failed');
      const down = await change(L.IDENTITY_LEVEL_SANDBOX_UNVERIFIED, 'demoted');
      expect(down.transition).toMatchObject({ fromLevel: L.IDENTITY_LEVEL_MAINNET_VERIFIED, toLevel: L.IDENTITY_LEVEL_SANDBOX_UNVERIFIED });

      const history = await t.client.listIdentityTransitions({ agentId, page: undefined });
      expect(history.transitions.map((x) => x.reason)).toEqual(['demoted', 'verified', 'attested', 'kyc basic']);
      expect(history.page!.nextCursor).toBe('');

      const first = await t.client.listIdentityTransitions({ agentId, page: { limit: 3, cursor: '' } });
      const rest = await t.client.listIdentityTransitions({ agentId, page: { limit: 3, cursor: first.page!.nextCursor } });
      expect([...first.transitions, ...rest.transitions].map((x) => x.transitionId)).toEqual(
        history.transitions.map((x) => x.transitionId),
      );
      expect(await outboxTypes(t.sql, agentId)).toEqual([
        'exchange.identity.agent.registered',
        ...Array(4).fill('exchange.identity.agent.level_changed'),
      ]);
    });

    it('should refuse skipping a level and staying at the same level with invalid_state, writing nothing', async () => {
      const { input } = await register();
      const skip = await grpcError(
        t.client.changeIdentityLevel({ agentId: input.agentId, identityLevel: L.IDENTITY_LEVEL_MAINNET_ATTESTED, reason: 'r' }),
      );
      expect(skip).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'SANDBOX_UNVERIFIED', wanted: 'MAINNET_ATTESTED' },
      });
      const same = await grpcError(
        t.client.changeIdentityLevel({ agentId: input.agentId, identityLevel: L.IDENTITY_LEVEL_SANDBOX_UNVERIFIED, reason: 'r' }),
      );
      expect(same.details).toEqual({ current: 'SANDBOX_UNVERIFIED', wanted: 'SANDBOX_UNVERIFIED' });
      expect((await t.client.listIdentityTransitions({ agentId: input.agentId, page: undefined })).transitions).toEqual([]);
      expect(await outboxTypes(t.sql, input.agentId)).toEqual(['exchange.identity.agent.registered']);
    });

    it('should require a reason and a level', async () => {
      const { input } = await register();
      const noReason = await grpcError(
        t.client.changeIdentityLevel({ agentId: input.agentId, identityLevel: L.IDENTITY_LEVEL_MAINNET_BASIC, reason: '' }),
      );
      expect(noReason.details).toEqual({ errors: [{ pointer: '/reason', message: 'is required' }] });
      const noLevel = await grpcError(
        t.client.changeIdentityLevel({ agentId: input.agentId, identityLevel: L.IDENTITY_LEVEL_UNSPECIFIED, reason: 'r' }),
      );
      expect(noLevel.details).toEqual({ errors: [{ pointer: '/identity_level', message: 'is required' }] });
    });

    it('should serialize concurrent changes of one agent: one wins, the other sees the new level', async () => {
      const { input } = await register();
      const results = await Promise.allSettled(
        [1, 2, 3].map(() =>
          t.client.changeIdentityLevel({ agentId: input.agentId, identityLevel: L.IDENTITY_LEVEL_MAINNET_BASIC, reason: 'race' }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((x) => x.status === 'rejected')) {
        const err = await grpcError(Promise.reject((r as PromiseRejectedResult).reason));
        expect(err.details).toEqual({ current: 'MAINNET_BASIC', wanted: 'MAINNET_BASIC' });
      }
      const { rows } = await t.sql.query('SELECT count(*)::int AS n FROM identity_transitions WHERE agent_id = $1', [input.agentId]);
      expect(rows[0].n).toBe(1);
    });

    it('should answer agent_not_found for unknown agents', async () => {
      expect(
        (await grpcError(t.client.changeIdentityLevel({ agentId: 'x:agent:none', identityLevel: L.IDENTITY_LEVEL_MAINNET_BASIC, reason: 'r' })))
          .code,
      ).toBe('agent_not_found');
      expect((await grpcError(t.client.listIdentityTransitions({ agentId: 'x:agent:none', page: undefined }))).code).toBe('agent_not_found');
    });
  });

  describe('RevokeKey', () => {
    it('should revoke a secondary key once and refuse the primary, unknown and revoked keys', async () => {
      const { input } = await register(1);
      const [secondary] = input.pubkeySet;
      const { agent } = await t.client.revokeKey({ agentId: input.agentId, pubkey: secondary, reason: 'rotated' }, OPERATOR);
      expect(agent!.keys[1]).toMatchObject({ pubkey: secondary, status: KeyStatus.KEY_STATUS_REVOKED, revokedReason: 'rotated' });
      expect(agent!.keys[1].revokedAt).toBeInstanceOf(Date);
      expect(agent!.keys[0].status).toBe(KeyStatus.KEY_STATUS_ACTIVE);

      expect(await grpcError(t.client.revokeKey({ agentId: input.agentId, pubkey: input.primaryPubkey, reason: 'r' }))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'primary_key_revocation',
      });
      expect(await grpcError(t.client.revokeKey({ agentId: input.agentId, pubkey: newKey().pubkey, reason: 'r' }))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'key_not_found',
      });
      expect(await grpcError(t.client.revokeKey({ agentId: input.agentId, pubkey: secondary, reason: 'again' }))).toMatchObject({
        code: 'invalid_state',
        details: { current: 'revoked', wanted: 'revoked' },
      });
      expect(await outboxTypes(t.sql, input.agentId)).toEqual([
        'exchange.identity.agent.registered',
        'exchange.identity.agent.key_revoked',
      ]);
      const { agent: read } = await t.client.getAgent({ agentId: input.agentId });
      expect(read).toEqual(agent);
    });

    it('should accept the key in base64url form (as it arrives in a URL path)', async () => {
      const { input } = await register(1);
      const urlForm = input.pubkeySet[0].replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const { agent } = await t.client.revokeKey({ agentId: input.agentId, pubkey: urlForm, reason: 'r' });
      expect(agent!.keys[1].status).toBe(KeyStatus.KEY_STATUS_REVOKED);
    });
  });

  describe('FreezeAgent and UnfreezeAgent', () => {
    it('should freeze with a reason, refuse a second freeze, unfreeze, and emit one event each', async () => {
      const { input } = await register();
      const frozen = await t.client.freezeAgent({ agentId: input.agentId, reason: 'fraud review' }, OPERATOR);
      expect(frozen.agent).toMatchObject({ status: AgentStatus.AGENT_STATUS_FROZEN, frozenReason: 'fraud review' });
      expect(await grpcError(t.client.freezeAgent({ agentId: input.agentId, reason: 'again' }))).toMatchObject({
        code: 'invalid_state',
        details: { current: 'frozen', wanted: 'frozen' },
      });
      const thawed = await t.client.unfreezeAgent({ agentId: input.agentId, reason: 'cleared' }, OPERATOR);
      expect(thawed.agent).toMatchObject({ status: AgentStatus.AGENT_STATUS_ACTIVE, frozenReason: undefined });
      expect(await grpcError(t.client.unfreezeAgent({ agentId: input.agentId, reason: 'again' }))).toMatchObject({
        code: 'invalid_state',
        details: { current: 'active', wanted: 'active' },
      });
      expect(await outboxTypes(t.sql, input.agentId)).toEqual([
        'exchange.identity.agent.registered',
        'exchange.identity.agent.frozen',
        'exchange.identity.agent.unfrozen',
      ]);
      const { rows } = await t.sql.query(
        `SELECT payload FROM outbox_events WHERE payload->>'subject_id' = $1 AND type = 'exchange.identity.agent.frozen'`,
        [input.agentId],
      );
      expect(rows[0].payload).toMatchObject({ actor: 'operator:ops', data: { reason: 'fraud review', agent: { status: 'AGENT_STATUS_FROZEN' } } });
    });

    it('should require a reason', async () => {
      const { input } = await register();
      expect((await grpcError(t.client.freezeAgent({ agentId: input.agentId, reason: ' ' }))).code).toBe('validation_failed');
      expect(await outboxTypes(t.sql, input.agentId)).toHaveLength(1);
    });
  });

  describe('VerifyAgentSignature', () => {
    it('should accept active keys, refuse revoked and foreign keys, and return the agent', async () => {
      const { input, primary, extra } = await register(1);
      const message = Buffer.from('POST /v1/anything');
      // Signs `message`, sends `sent` (to show a signature does not cover other bytes).
      const verifyBy = (privateKey: Uint8Array, sent: Buffer = message) =>
        t.client.verifyAgentSignature({ agentId: input.agentId, message: sent, signature: toBase64(sign(message, privateKey)) });

      const byPrimary = await verifyBy(primary.privateKey);
      expect(byPrimary).toMatchObject({ valid: true, pubkey: input.primaryPubkey });
      expect(byPrimary.agent!.agentId).toBe(input.agentId);
      expect(await verifyBy(extra[0].privateKey)).toMatchObject({ valid: true, pubkey: extra[0].pubkey });

      await t.client.revokeKey({ agentId: input.agentId, pubkey: extra[0].pubkey, reason: 'lost' });
      const revoked = await verifyBy(extra[0].privateKey);
      expect(revoked).toMatchObject({ valid: false, pubkey: '' });
      expect(revoked.agent!.keys[1].status).toBe(KeyStatus.KEY_STATUS_REVOKED);

      expect((await verifyBy(newKey().privateKey)).valid).toBe(false);
      expect((await verifyBy(primary.privateKey, Buffer.from('tampered'))).valid).toBe(false);
    });

    it('should return the frozen status so the gateway can refuse the agent', async () => {
      const { input, primary } = await register();
      await t.client.freezeAgent({ agentId: input.agentId, reason: 'r' });
      const message = Buffer.from('x');
      const res = await t.client.verifyAgentSignature({ agentId: input.agentId, message, signature: toBase64(sign(message, primary.privateKey)) });
      expect(res.valid).toBe(true);
      expect(res.agent!.status).toBe(AgentStatus.AGENT_STATUS_FROZEN);
    });

    it('should answer invalid with no agent for an unknown agent', async () => {
      const key = newKey();
      const message = Buffer.from('x');
      const res = await t.client.verifyAgentSignature({ agentId: 'x:agent:none', message, signature: toBase64(sign(message, key.privateKey)) });
      expect(res).toEqual({ valid: false, pubkey: '', agent: undefined });
    });
  });
});
