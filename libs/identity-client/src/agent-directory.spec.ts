import { createServiceClient } from '@exchange/platform';
import { generateKeyPair, sign, toBase64 } from '@exchange/crypto';
import { identityV1 } from '@exchange/proto';
import { startFakeIdentity, testLogger, type FakeIdentity } from '@exchange/testing';
import { AgentDirectory, type IdentityClient } from './agent-directory';

describe('AgentDirectory', () => {
  let identity: FakeIdentity;
  let client: IdentityClient;
  const keys = generateKeyPair();
  beforeAll(async () => {
    identity = await startFakeIdentity([{ agentId: 'a:1', pubkeys: [toBase64(keys.publicKey)] }, { agentId: 'a:frozen', frozen: true }]);
    client = createServiceClient(identityV1.IdentityServiceService, identity.address);
  });
  afterAll(async () => {
    client.close();
    await identity.close();
  });

  it('should reuse an answer within the TTL and ask again after it', async () => {
    let now = 0;
    const dir = new AgentDirectory(client, 1000, testLogger, () => now);
    const before = identity.calls['GetAgent'] ?? 0;
    await dir.get('a:1');
    await dir.get('a:1');
    expect((identity.calls['GetAgent'] ?? 0) - before).toBe(1);
    now = 1001;
    await dir.get('a:1');
    expect((identity.calls['GetAgent'] ?? 0) - before).toBe(2);
  });

  it('should map unknown agents to 404 agent_not_found and frozen ones to 403 agent_frozen', async () => {
    const dir = new AgentDirectory(client, 0, testLogger);
    await expect(dir.active('a:none')).rejects.toMatchObject({ code: 'agent_not_found' });
    await expect(dir.active('a:frozen')).rejects.toMatchObject({ code: 'agent_frozen' });
    await expect(dir.active('a:1')).resolves.toEqual({ agentId: 'a:1', frozen: false, level: identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED });
  });

  it('should verify a signature with a key of the agent only', async () => {
    const dir = new AgentDirectory(client, 0, testLogger);
    const message = Buffer.from('hello', 'utf8');
    expect(await dir.verifySignature('a:1', message, toBase64(sign(message, keys.privateKey)))).toBe(toBase64(keys.publicKey));
    expect(await dir.verifySignature('a:1', message, toBase64(sign(message, generateKeyPair().privateKey)))).toBeNull();
    expect(await dir.verifySignature('a:none', message, toBase64(sign(message, keys.privateKey)))).toBeNull();
  });

  it('should ask identity on every current() lookup and refresh the cache with the answer', async () => {
    let now = 0;
    const dir = new AgentDirectory(client, 1000, testLogger, () => now);
    const before = identity.calls['GetAgent'] ?? 0;
    await dir.get('a:1');
    await dir.current('a:1');
    await dir.current('a:1');
    expect((identity.calls['GetAgent'] ?? 0) - before).toBe(3);
    now = 999;
    await dir.get('a:1'); // cached by the last current()
    expect((identity.calls['GetAgent'] ?? 0) - before).toBe(3);
  });

  it('should map the agent with the mapping given', async () => {
    const dir = new AgentDirectory(client, 0, testLogger, Date.now, (a) => ({ agentId: a.agentId, frozen: false, keys: a.keys.length }));
    await expect(dir.get('a:1')).resolves.toEqual({ agentId: 'a:1', frozen: false, keys: 1 });
  });

  it('should answer 503 identity_unavailable when identity is down', async () => {
    const down = createServiceClient(identityV1.IdentityServiceService, '127.0.0.1:1');
    const dir = new AgentDirectory(down, 0, testLogger);
    await expect(dir.get('a:1')).rejects.toMatchObject({ code: 'identity_unavailable' });
    down.close();
  });
});
