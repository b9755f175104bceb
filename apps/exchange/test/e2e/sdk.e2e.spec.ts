import { ExchangeApiError, ExchangeClient, generateAgentKeys } from '@exchange/sdk';
import { bootStack, type Stack } from './stack';
import { uniqueAgentId } from './raw-agent';

// The same Agents area driven through our SDK, as an agent developer would use it.
let stack: Stack;
let operator: ExchangeClient;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  operator = new ExchangeClient({ baseUrl: stack.baseUrl, operatorToken: stack.operatorToken });
});

afterAll(async () => {
  await stack?.stop();
});

async function apiError(promise: Promise<unknown>): Promise<ExchangeApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ExchangeApiError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('SDK against the running exchange', () => {
  it('registers, reads as the agent itself, climbs a level and lists the history', async () => {
    const keys = generateAgentKeys();
    const agentId = uniqueAgentId('sdk-buyer');
    const created = await operator.agents.registerAgent({ agentId, keys });
    expect(created.identity_level).toBe('SANDBOX_UNVERIFIED');

    const self = new ExchangeClient({ baseUrl: stack.baseUrl, agent: { agentId, privateKey: keys.privateKey } });
    expect(await self.agents.getAgent(agentId)).toEqual(created);

    const promoted = await operator.agents.changeIdentityLevel(agentId, 'MAINNET_BASIC', 'verified email');
    expect(promoted.identity_level).toBe('MAINNET_BASIC');
    const history = await operator.agents.listIdentityTransitions(agentId, {});
    expect(history.data).toEqual([
      expect.objectContaining({ from_level: 'SANDBOX_UNVERIFIED', to_level: 'MAINNET_BASIC', reason: 'verified email' }),
    ]);
  });

  it('surfaces problems as ExchangeApiError with the stable code and request id', async () => {
    const keys = generateAgentKeys();
    const agentId = uniqueAgentId('sdk-dup');
    await operator.agents.registerAgent({ agentId, keys });
    const dup = await apiError(operator.agents.registerAgent({ agentId, keys }));
    expect(dup).toMatchObject({ status: 409, code: 'agent_id_exists', detail: 'agent_id already exists' });
    expect(dup.requestId).toEqual(expect.any(String));

    const skip = await apiError(operator.agents.changeIdentityLevel(agentId, 'MAINNET_VERIFIED', 'skip'));
    expect(skip).toMatchObject({ status: 409, code: 'invalid_state' });

    const anonymous = new ExchangeClient({ baseUrl: stack.baseUrl });
    expect(await apiError(anonymous.agents.getAgent(agentId))).toMatchObject({ status: 401 });
  });

  it('iterates every agent across pages', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const agentId = uniqueAgentId(`sdk-iter-${i}`);
      await operator.agents.registerAgent({ agentId, keys: generateAgentKeys() });
      ids.push(agentId);
    }
    const seen: string[] = [];
    for await (const agent of operator.agents.iterateAgents({ limit: 2 })) seen.push(agent.agent_id);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('freezes, unfreezes and revokes a spare key', async () => {
    const keys = generateAgentKeys();
    const spare = generateAgentKeys();
    const agentId = uniqueAgentId('sdk-ops');
    await operator.agents.registerAgent({ agentId, keys, additionalPublicKeys: [spare.publicKey] });
    expect((await operator.agents.freezeAgent(agentId, 'review')).status).toBe('frozen');
    expect((await operator.agents.unfreezeAgent(agentId, 'done')).status).toBe('active');
    const after = await operator.agents.revokeKey(agentId, spare.publicKey, 'rotated');
    expect(after.keys.find((k) => !k.primary)).toMatchObject({ status: 'revoked', revoked_reason: 'rotated' });
  });

  it('reports health with the exchange public key', async () => {
    const health = await operator.health();
    expect(health.status).toBe('ok');
    expect(health.services.identity.status).toBe('SERVING');
  });
});
