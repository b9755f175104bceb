import { status } from '@grpc/grpc-js';
import { identityV1 } from '@exchange/proto';
import { signedRegistration } from './factories/agent.factory';
import { grpcError, registerRequest, startTestIdentity, type TestIdentity } from './identity-harness';

const { IdentityLevel, AgentStatus } = identityV1;
// Ids registration could not have accepted: a NUL byte (PostgreSQL refuses a whole statement for
// it), too long, not an id at all, empty.
const MALFORMED_IDS = ['nobody:agent:nul\u0000', `nobody:agent:${'x'.repeat(64)}`, 'NOT AN ID', ''];
const ANY = { identityLevel: IdentityLevel.IDENTITY_LEVEL_UNSPECIFIED, status: AgentStatus.AGENT_STATUS_UNSPECIFIED };

// A database of its own: the list assertions count every agent in it.
describe('identity gRPC: GetAgent, GetAgents and ListAgents', () => {
  let t: TestIdentity;
  const registered: string[] = [];

  beforeAll(async () => {
    t = await startTestIdentity({ name: 'identity_list' });
    for (let i = 0; i < 5; i++) {
      const { agent } = await t.client.registerAgent(registerRequest(signedRegistration().input));
      registered.push(agent!.agentId);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should answer NOT_FOUND agent_not_found for an unknown agent', async () => {
    const err = await grpcError(t.client.getAgent({ agentId: 'nobody:agent:here' }));
    expect(err).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'agent_not_found', message: 'agent nobody:agent:here not found' });
  });

  it('should answer GetAgents with each agent found once — as GetAgent has it — unknown and malformed ids absent (a NUL byte included)', async () => {
    const [a, b] = registered;
    const res = await t.client.getAgents({ agentIds: [b, 'nobody:agent:here', a, ...MALFORMED_IDS, b] });
    const byId = new Map(res.agents.map((agent) => [agent.agentId, agent]));
    expect([...byId.keys()].sort()).toEqual([a, b].sort());
    expect(res.agents).toHaveLength(2);
    expect(byId.get(a)).toEqual((await t.client.getAgent({ agentId: a })).agent);
    expect(byId.get(b)).toEqual((await t.client.getAgent({ agentId: b })).agent);
    expect((await t.client.getAgents({ agentIds: [] })).agents).toEqual([]);
  });

  it('should answer an id registration could not have accepted (a NUL byte, too long) as an unknown agent on every call naming one', async () => {
    const op = { actor: 'operator:ops' };
    for (const agentId of MALFORMED_IDS) {
      const notFound = { grpcCode: status.NOT_FOUND, code: 'agent_not_found' };
      expect([agentId, await grpcError(t.client.getAgent({ agentId }))]).toMatchObject([agentId, notFound]);
      expect([agentId, await grpcError(t.client.listIdentityTransitions({ agentId, page: undefined }))]).toMatchObject([agentId, notFound]);
      expect([agentId, await grpcError(t.client.freezeAgent({ agentId, reason: 'r' }, op))]).toMatchObject([agentId, notFound]);
      expect([agentId, await grpcError(t.client.unfreezeAgent({ agentId, reason: 'r' }, op))]).toMatchObject([agentId, notFound]);
      expect([agentId, await grpcError(t.client.changeIdentityLevel({ agentId, identityLevel: IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC, reason: 'r' }, op))]).toMatchObject([
        agentId,
        notFound,
      ]);
      const pubkey = signedRegistration().input.primaryPubkey;
      expect([agentId, await grpcError(t.client.revokeKey({ agentId, pubkey, reason: 'r' }, op))]).toMatchObject([agentId, notFound]);
      const verdict = await t.client.verifyAgentSignature({ agentId, message: Buffer.from('m'), signature: Buffer.alloc(64).toString('base64') });
      expect([agentId, verdict.valid, verdict.agent]).toEqual([agentId, false, undefined]);
    }
  });

  it('should take 1000 ids in GetAgents and refuse 1001 with INVALID_ARGUMENT validation_failed', async () => {
    const ids = (n: number) => [registered[0], ...Array.from({ length: n - 1 }, (_, i) => `nobody:agent:n${i}`)];
    expect((await t.client.getAgents({ agentIds: ids(1000) })).agents.map((agent) => agent.agentId)).toEqual([registered[0]]);
    // The fakes (libs/testing, apps/gateway/test) give this same refusal.
    expect(await grpcError(t.client.getAgents({ agentIds: ids(1001) }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'validation_failed',
      message: 'agent_ids must hold at most 1000 ids',
      details: { errors: [{ pointer: '/agent_ids', message: 'must hold at most 1000 ids' }] },
    });
  });

  it('should page newest first over 3 pages of 2 without duplicates or gaps', async () => {
    const pages: string[][] = [];
    let cursor = '';
    do {
      const res = await t.client.listAgents({ page: { limit: 2, cursor }, ...ANY });
      pages.push(res.agents.map((a) => a.agentId));
      cursor = res.page!.nextCursor;
    } while (cursor !== '' && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...registered].reverse());
  });

  it('should return full agents with keys in the list', async () => {
    const res = await t.client.listAgents({ page: { limit: 1, cursor: '' }, ...ANY });
    const { agent } = await t.client.getAgent({ agentId: res.agents[0].agentId });
    expect(res.agents[0]).toEqual(agent);
  });

  it('should default to 50 per page', async () => {
    const res = await t.client.listAgents({ page: undefined, ...ANY });
    expect(res.agents).toHaveLength(registered.length);
    expect(res.page!.nextCursor).toBe('');
  });

  it('should filter by identity level and by status', async () => {
    const [oldest, second] = registered;
    await t.client.changeIdentityLevel({ agentId: oldest, identityLevel: IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC, reason: 'test' });
    await t.client.freezeAgent({ agentId: second, reason: 'test' });
    // The freeze that has answered is what the next batch read sees.
    expect((await t.client.getAgents({ agentIds: [second] })).agents).toMatchObject([{ status: AgentStatus.AGENT_STATUS_FROZEN, frozenReason: 'test' }]);

    const basic = await t.client.listAgents({ page: undefined, ...ANY, identityLevel: IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC });
    expect(basic.agents.map((a) => a.agentId)).toEqual([oldest]);
    const frozen = await t.client.listAgents({ page: undefined, ...ANY, status: AgentStatus.AGENT_STATUS_FROZEN });
    expect(frozen.agents.map((a) => a.agentId)).toEqual([second]);
    const activeSandbox = await t.client.listAgents({
      page: { limit: 2, cursor: '' },
      identityLevel: IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
      status: AgentStatus.AGENT_STATUS_ACTIVE,
    });
    expect(activeSandbox.agents.map((a) => a.agentId)).toEqual([registered[4], registered[3]]);
    const next = await t.client.listAgents({
      page: { limit: 2, cursor: activeSandbox.page!.nextCursor },
      identityLevel: IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
      status: AgentStatus.AGENT_STATUS_ACTIVE,
    });
    expect(next.agents.map((a) => a.agentId)).toEqual([registered[2]]);
    expect(next.page!.nextCursor).toBe('');
  });

  it('should refuse an invalid cursor and a limit of 201', async () => {
    expect(await grpcError(t.client.listAgents({ page: { limit: 2, cursor: 'not-a-cursor' }, ...ANY }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'invalid_cursor',
    });
    expect(await grpcError(t.client.listAgents({ page: { limit: 201, cursor: '' }, ...ANY }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'invalid_limit',
    });
    expect((await t.client.listAgents({ page: { limit: 200, cursor: '' }, ...ANY })).agents).toHaveLength(5);
  });

  it('should refuse an unknown level filter', async () => {
    expect((await grpcError(t.client.listAgents({ page: undefined, ...ANY, identityLevel: 77 as identityV1.IdentityLevel }))).code).toBe('validation_failed');
  });
});
