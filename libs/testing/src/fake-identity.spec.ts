import { status } from '@grpc/grpc-js';
import { createServiceClient, errorInfoFromGrpc } from '@exchange/platform';
import { generateKeyPair, sign, toBase64, verifyCanonical } from '@exchange/crypto';
import { identityV1 } from '@exchange/proto';
import { fakePubkey, startFakeIdentity, type FakeIdentity } from './fake-identity';

describe('startFakeIdentity', () => {
  let fake: FakeIdentity;
  let client: ReturnType<typeof createServiceClient<typeof identityV1.IdentityServiceService>>;
  const keys = generateKeyPair();

  beforeAll(async () => {
    fake = await startFakeIdentity([{ agentId: 'acme:agent:alice', pubkeys: [toBase64(keys.publicKey)] }]);
    client = createServiceClient(identityV1.IdentityServiceService, fake.address);
  });
  afterAll(async () => {
    client.close();
    await fake.close();
  });

  it('serves GetAgent with level and status that tests can change, and counts calls', async () => {
    const before = await client.getAgent({ agentId: 'acme:agent:alice' });
    expect(before.agent?.identityLevel).toBe(identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED);
    expect(before.agent?.status).toBe(identityV1.AgentStatus.AGENT_STATUS_ACTIVE);
    fake.freeze('acme:agent:alice');
    fake.setLevel('acme:agent:alice', identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED);
    const after = await client.getAgent({ agentId: 'acme:agent:alice' });
    expect(after.agent?.status).toBe(identityV1.AgentStatus.AGENT_STATUS_FROZEN);
    expect(after.agent?.identityLevel).toBe(identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED);
    expect(fake.calls.GetAgent).toBe(2);
  });

  it('answers NOT_FOUND agent_not_found for an unknown agent', async () => {
    const err = await client.getAgent({ agentId: 'acme:agent:nobody' }).catch((e: unknown) => e);
    expect(errorInfoFromGrpc(err).code).toBe('agent_not_found');
  });

  it('serves GetAgents as identity: each agent found once, unknown ids absent, more than 1000 ids refused', async () => {
    const { AgentStatus } = identityV1;
    fake.put({ agentId: 'acme:agent:carol' });
    const seen: string[][] = [];
    const calls = fake.calls.GetAgents ?? 0;
    fake.onGetAgents = (ids) => {
      seen.push(ids);
      fake.freeze('acme:agent:carol', true); // after the read: not in this answer, in the next one
    };
    try {
      const ids = ['acme:agent:carol', 'acme:agent:nobody', 'acme:agent:carol'];
      const first = await client.getAgents({ agentIds: ids });
      expect(first.agents.map((a) => [a.agentId, a.status])).toEqual([['acme:agent:carol', AgentStatus.AGENT_STATUS_ACTIVE]]);
      const second = await client.getAgents({ agentIds: ids });
      expect(second.agents.map((a) => [a.agentId, a.status])).toEqual([['acme:agent:carol', AgentStatus.AGENT_STATUS_FROZEN]]);
      expect(seen).toEqual([ids, ids]);
      expect(fake.batches.slice(-2)).toEqual([ids, ids]);
      const tooMany = await client.getAgents({ agentIds: Array.from({ length: 1001 }, (_, i) => `acme:agent:n${i}`) }).catch((e: unknown) => e);
      expect(errorInfoFromGrpc(tooMany)).toEqual({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'validation_failed',
        message: 'agent_ids must hold at most 1000 ids',
        details: { errors: [{ pointer: '/agent_ids', message: 'must hold at most 1000 ids' }] },
      });
      expect(fake.calls.GetAgents - calls).toBe(3);
    } finally {
      fake.onGetAgents = null;
    }
  });

  it('verifies signatures against the agent keys only', async () => {
    fake.put({ agentId: 'acme:agent:bob', pubkeys: [fakePubkey(7), toBase64(keys.publicKey)] });
    const message = Buffer.from('hello');
    const signature = toBase64(sign(message, keys.privateKey));
    const ok = await client.verifyAgentSignature({ agentId: 'acme:agent:bob', message, signature });
    expect(ok.valid).toBe(true);
    expect(ok.pubkey).toBe(toBase64(keys.publicKey));
    const forged = await client.verifyAgentSignature({ agentId: 'acme:agent:bob', message: Buffer.from('other'), signature });
    expect(forged.valid).toBe(false);
  });

  it('mints one alias per (contract, role), signed with its key, and reveals only to the aliased agent or operator', async () => {
    const { PartyRole } = identityV1;
    const first = await client.mintPartyAlias({ contractId: 'ctr_1', role: PartyRole.PARTY_ROLE_BUYER, agentId: 'acme:agent:alice' });
    expect(first.alias).toMatch(/^anon:[a-z2-7]{12}$/);
    expect(first.created).toBe(true);
    expect(verifyCanonical(JSON.parse(first.payloadJson), first.signature, fake.exchangePublicKey)).toBe(true);
    const again = await client.mintPartyAlias({ contractId: 'ctr_1', role: PartyRole.PARTY_ROLE_BUYER, agentId: 'acme:agent:alice' });
    expect(again).toEqual({ ...first, created: false });
    expect(fake.aliases.get('ctr_1|buyer')).toEqual({ alias: first.alias, agentId: 'acme:agent:alice' });

    fake.failMints();
    const failed = await client.mintPartyAlias({ contractId: 'ctr_2', role: PartyRole.PARTY_ROLE_BUYER, agentId: 'a' }).catch((e: unknown) => e);
    expect(errorInfoFromGrpc(failed).code).toBe('registry_unavailable');

    const denied = await client
      .mintIdentityReveal({ contractId: 'ctr_1', alias: first.alias, revealTo: 'acme:agent:bob' }, { actor: 'agent:acme:agent:bob', agentId: 'acme:agent:bob' })
      .catch((e: unknown) => e);
    expect(errorInfoFromGrpc(denied).code).toBe('not_alias_owner');
    const reveal = await client.mintIdentityReveal({ contractId: 'ctr_1', alias: first.alias, revealTo: 'acme:agent:bob' }, { actor: 'operator:ops' });
    expect(JSON.parse(reveal.payloadJson)).toEqual({ alias: first.alias, agent_id: 'acme:agent:alice', contract_id: 'ctr_1', reveal_to: 'acme:agent:bob' });
    expect(reveal.created).toBe(true);
  });
});
