import { createServiceClient, errorInfoFromGrpc } from '@exchange/platform';
import { generateKeyPair, sign, toBase64 } from '@exchange/crypto';
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
});
