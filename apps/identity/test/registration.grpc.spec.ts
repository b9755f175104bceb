import { status } from '@grpc/grpc-js';
import { identityV1 } from '@exchange/proto';
import { signCanonical, toBase64 } from '@exchange/crypto';
import { newAgentId, newKey, signedRegistration } from './factories/agent.factory';
import { grpcError, outboxTypes, registerRequest, startTestIdentity, type TestIdentity } from './identity-harness';

const { IdentityLevel, AgentStatus, KeyStatus } = identityV1;

describe('identity gRPC: RegisterAgent', () => {
  let t: TestIdentity;

  beforeAll(async () => {
    t = await startTestIdentity({ name: 'identity_registration' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should register an agent with its keys and return it from GetAgent', async () => {
    const { input } = signedRegistration({ extraKeys: 2 });
    const { agent } = await t.client.registerAgent(registerRequest(input), { actor: 'operator:default' });
    expect(agent).toMatchObject({
      agentId: input.agentId,
      primaryPubkey: input.primaryPubkey,
      identityLevel: IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
      status: AgentStatus.AGENT_STATUS_ACTIVE,
      frozenReason: undefined,
    });
    expect(agent!.keys.map((k) => [k.pubkey, k.primary, k.status])).toEqual([
      [input.primaryPubkey, true, KeyStatus.KEY_STATUS_ACTIVE],
      [input.pubkeySet[0], false, KeyStatus.KEY_STATUS_ACTIVE],
      [input.pubkeySet[1], false, KeyStatus.KEY_STATUS_ACTIVE],
    ]);
    expect(agent!.createdAt).toBeInstanceOf(Date);

    const { agent: read } = await t.client.getAgent({ agentId: input.agentId });
    expect(read).toEqual(agent);
    expect(await outboxTypes(t.sql, input.agentId)).toEqual(['exchange.identity.agent.registered']);
  });

  it('should record the registered event with the proto JSON of the agent', async () => {
    const { input } = signedRegistration();
    await t.client.registerAgent(registerRequest(input), { actor: 'operator:default', traceId: 'trace-reg' });
    const { rows } = await t.sql.query(`SELECT payload FROM outbox_events WHERE payload->>'subject_id' = $1`, [input.agentId]);
    expect(rows[0].payload).toMatchObject({
      type: 'exchange.identity.agent.registered',
      source: 'identity',
      subject_id: input.agentId,
      actor: 'operator:default',
      trace_id: 'trace-reg',
      data: { agent: { agentId: input.agentId, identityLevel: 'IDENTITY_LEVEL_SANDBOX_UNVERIFIED' } },
    });
    expect(rows[0].payload.id).toMatch(/^evt_/);
  });

  it('should refuse a bad proof with key_proof_failed and the exact message, storing nothing', async () => {
    const { input } = signedRegistration();
    const other = signedRegistration({ agentId: input.agentId, proofNonce: input.proofNonce });
    const err = await grpcError(t.client.registerAgent(registerRequest({ ...input, proofSignature: other.input.proofSignature })));
    expect(err).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'key_proof_failed', message: 'key ownership proof failed' });
    expect((await grpcError(t.client.getAgent({ agentId: input.agentId }))).code).toBe('agent_not_found');
    expect(await outboxTypes(t.sql, input.agentId)).toEqual([]);
    // The nonce was not consumed: the genuine registration still goes through.
    await expect(t.client.registerAgent(registerRequest(input))).resolves.toBeDefined();
  });

  it('should refuse a duplicate agent_id with agent_id_exists and the exact message', async () => {
    const first = signedRegistration();
    await t.client.registerAgent(registerRequest(first.input));
    const err = await grpcError(t.client.registerAgent(registerRequest(signedRegistration({ agentId: first.input.agentId }).input)));
    expect(err).toMatchObject({ grpcCode: status.ALREADY_EXISTS, code: 'agent_id_exists', message: 'agent_id already exists' });
    expect(await outboxTypes(t.sql, first.input.agentId)).toEqual(['exchange.identity.agent.registered']);
  });

  it('should let exactly one of several concurrent registrations of one agent_id win', async () => {
    const agentId = newAgentId('race');
    const attempts = Array.from({ length: 6 }, () => signedRegistration({ agentId }).input);
    const results = await Promise.allSettled(attempts.map((input) => t.client.registerAgent(registerRequest(input))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failures = await Promise.all(
      results.filter((r) => r.status === 'rejected').map((r) => grpcError(Promise.reject((r as PromiseRejectedResult).reason))),
    );
    expect(failures.map((f) => [f.code, f.message])).toEqual(Array(5).fill(['agent_id_exists', 'agent_id already exists']));
    expect(await outboxTypes(t.sql, agentId)).toHaveLength(1);
    const { rows } = await t.sql.query('SELECT count(*)::int AS n FROM proof_nonces WHERE agent_id = $1', [agentId]);
    expect(rows[0].n).toBe(1);
  });

  it('should refuse a proof nonce that another agent already used', async () => {
    const first = signedRegistration();
    await t.client.registerAgent(registerRequest(first.input));
    const second = signedRegistration({ proofNonce: first.input.proofNonce });
    const err = await grpcError(t.client.registerAgent(registerRequest(second.input)));
    expect(err).toMatchObject({ grpcCode: status.ALREADY_EXISTS, code: 'proof_nonce_used' });
    expect(await outboxTypes(t.sql, second.input.agentId)).toEqual([]);
  });

  it('should refuse concurrent registrations sharing a nonce except one', async () => {
    const nonce = `shared-${newAgentId()}`;
    const attempts = Array.from({ length: 4 }, () => signedRegistration({ proofNonce: nonce }).input);
    const results = await Promise.allSettled(attempts.map((input) => t.client.registerAgent(registerRequest(input))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const codes = await Promise.all(
      results.filter((r) => r.status === 'rejected').map(async (r) => (await grpcError(Promise.reject((r as PromiseRejectedResult).reason))).code),
    );
    expect(codes).toEqual(['proof_nonce_used', 'proof_nonce_used', 'proof_nonce_used']);
  });

  it('should refuse a primary_pubkey bound to another agent with pubkey_in_use, storing nothing (issue 12 finding 10)', async () => {
    const owner = signedRegistration();
    await t.client.registerAgent(registerRequest(owner.input));
    // The same key, proving ownership for another agent id: a key belongs to one agent only.
    const reuse = signedRegistration({ agentId: newAgentId('reuse') });
    const proofSignature = signCanonical({ agent_id: reuse.input.agentId, primary_pubkey: owner.input.primaryPubkey, proof_nonce: reuse.input.proofNonce }, owner.primary.privateKey);
    const err = await grpcError(t.client.registerAgent(registerRequest({ ...reuse.input, primaryPubkey: owner.input.primaryPubkey, proofSignature })));
    expect(err).toMatchObject({ grpcCode: status.ALREADY_EXISTS, code: 'pubkey_in_use', details: { pointer: '/primary_pubkey' } });
    expect((await grpcError(t.client.getAgent({ agentId: reuse.input.agentId }))).code).toBe('agent_not_found');
    expect(await outboxTypes(t.sql, reuse.input.agentId)).toEqual([]);
    // Nothing was consumed: the same registration with a key of its own goes through.
    await expect(t.client.registerAgent(registerRequest(reuse.input))).resolves.toBeDefined();
  });

  it('should refuse a pubkey_set key bound to another agent (revoked there or not) with pubkey_in_use naming it', async () => {
    const owner = signedRegistration({ extraKeys: 2 });
    await t.client.registerAgent(registerRequest(owner.input));
    await t.client.revokeKey({ agentId: owner.input.agentId, pubkey: owner.input.pubkeySet[1]!, reason: 'rotated' }, { actor: 'operator:ops' });
    for (const [i, key] of [owner.input.primaryPubkey, ...owner.input.pubkeySet].entries()) {
      const other = signedRegistration({ extraKeys: 1 });
      const err = await grpcError(t.client.registerAgent(registerRequest({ ...other.input, pubkeySet: [...other.input.pubkeySet, key] })));
      expect([i, err]).toMatchObject([i, { grpcCode: status.ALREADY_EXISTS, code: 'pubkey_in_use', details: { pointer: '/pubkey_set/1' } }]);
      expect(await outboxTypes(t.sql, other.input.agentId)).toEqual([]);
    }
  });

  it('should let exactly one of several concurrent registrations naming the same key win', async () => {
    const shared = newKey().pubkey;
    const attempts = Array.from({ length: 5 }, () => {
      const { input } = signedRegistration();
      return { ...input, pubkeySet: [shared] };
    });
    const results = await Promise.allSettled(attempts.map((input) => t.client.registerAgent(registerRequest(input))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const codes = await Promise.all(
      results.filter((r) => r.status === 'rejected').map(async (r) => (await grpcError(Promise.reject((r as PromiseRejectedResult).reason))).code),
    );
    expect(codes).toEqual(Array(4).fill('pubkey_in_use'));
    const { rows } = await t.sql.query('SELECT count(*)::int AS n FROM agent_keys WHERE pubkey = $1', [shared]);
    expect(rows[0].n).toBe(1);
  });

  it('should refuse mainnet levels in sandbox with identity_level_not_allowed', async () => {
    const { input } = signedRegistration();
    const err = await grpcError(t.client.registerAgent(registerRequest(input, IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC)));
    expect(err).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'identity_level_not_allowed' });
    const { agent } = await t.client.registerAgent(registerRequest(input, IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED));
    expect(agent!.identityLevel).toBe(IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED);
  });

  it('should list every field error in the details of validation_failed', async () => {
    const { input } = signedRegistration();
    const err = await grpcError(
      t.client.registerAgent(
        registerRequest({ ...input, agentId: 'Bad Id', pubkeySet: [input.primaryPubkey, toBase64(new Uint8Array(8))] }),
      ),
    );
    expect(err.grpcCode).toBe(status.INVALID_ARGUMENT);
    expect(err.code).toBe('validation_failed');
    expect(err.details).toEqual({
      errors: [
        { pointer: '/agent_id', message: expect.any(String) },
        { pointer: '/pubkey_set/0', message: 'duplicates another key of the agent' },
        { pointer: '/pubkey_set/1', message: expect.any(String) },
      ],
    });
  });
});

describe('identity gRPC: RegisterAgent in mainnet', () => {
  let t: TestIdentity;

  beforeAll(async () => {
    t = await startTestIdentity({ name: 'identity_mainnet', environment: 'mainnet' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should default to MAINNET_BASIC, keep mainnet levels as sent and refuse SANDBOX_UNVERIFIED', async () => {
    const plain = (await t.client.registerAgent(registerRequest(signedRegistration().input))).agent!;
    expect(plain.identityLevel).toBe(IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC);
    const verified = await t.client.registerAgent(
      registerRequest(signedRegistration().input, IdentityLevel.IDENTITY_LEVEL_MAINNET_VERIFIED),
    );
    expect(verified.agent!.identityLevel).toBe(IdentityLevel.IDENTITY_LEVEL_MAINNET_VERIFIED);
    const err = await grpcError(
      t.client.registerAgent(registerRequest(signedRegistration().input, IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED)),
    );
    expect(err.code).toBe('identity_level_not_allowed');
  });
});
