import { status } from '@grpc/grpc-js';
import { verifyCanonical } from '@exchange/crypto';
import { identityV1, registryV1 } from '@exchange/proto';
import { signedRegistration } from './factories/agent.factory';
import { startFakeRegistry, type FakeRegistry } from './fakes/fake-registry';
import { grpcError, registerRequest, startTestIdentity, type TestIdentity } from './identity-harness';

const { PartyRole } = identityV1;
const operator = { actor: 'operator:ops' };

describe('identity gRPC: MintPartyAlias and MintIdentityReveal (real PostgreSQL, fake registry)', () => {
  let registry: FakeRegistry;
  let t: TestIdentity;
  let alice: string;
  let bob: string;
  let carol: string;
  let contractSeq = 0;
  const newContract = () => `ctr_test${Date.now().toString(36)}${++contractSeq}`;

  beforeAll(async () => {
    registry = await startFakeRegistry();
    t = await startTestIdentity({ name: 'identity_aliases', registryUrl: registry.address });
    const register = async () => (await t.client.registerAgent(registerRequest(signedRegistration().input))).agent!.agentId;
    alice = await register();
    bob = await register();
    carol = await register();
  });
  afterAll(async () => {
    await t?.close();
    await registry?.stop();
  });

  it('should mint a buyer alias once: anon: + 12 base32, an exchange-signed public token, the same answer again', async () => {
    const contractId = newContract();
    const first = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice }, { actor: `agent:${alice}`, agentId: alice });
    expect(first.alias).toMatch(/^anon:[a-z2-7]{12}$/);
    expect(first.created).toBe(true);
    expect(JSON.parse(first.payloadJson)).toEqual({ alias: first.alias, contract_id: contractId, role: 'buyer' });
    expect(first.payloadJson).toBe(`{"alias":"${first.alias}","contract_id":"${contractId}","role":"buyer"}`);
    expect(verifyCanonical(JSON.parse(first.payloadJson), first.signature, registry.exchangePublicKey)).toBe(true);
    const stored = registry.objects.get(first.objectId)!;
    expect(stored).toMatchObject({ type: 'party_alias_token', visibility: registryV1.Visibility.VISIBILITY_PUBLIC, parties: [], signerAgentId: 'exchange' });
    // Identity stores it as a service: no actor, no acting agent forwarded.
    expect(registry.calls.at(-1)).toMatchObject({ actor: null, agentId: null });

    const again = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice }, operator);
    expect(again).toEqual({ ...first, created: false });

    const { rows } = await t.sql.query('SELECT alias, agent_id, role::text, object_id FROM party_aliases WHERE contract_id = $1', [contractId]);
    expect(rows).toEqual([{ alias: first.alias, agent_id: alice, role: 'buyer', object_id: first.objectId }]);
  });

  it('should give the seller role of the same contract its own alias, and concurrent mints one alias', async () => {
    const contractId = newContract();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_SELLER, agentId: bob })),
    );
    expect(new Set(results.map((r) => r.alias)).size).toBe(1);
    expect(new Set(results.map((r) => r.objectId)).size).toBe(1);
    const buyer = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice });
    expect(buyer.alias).not.toBe(results[0]!.alias);
    const { rows } = await t.sql.query('SELECT count(*)::int AS n FROM party_aliases WHERE contract_id = $1', [contractId]);
    expect(rows[0].n).toBe(2);
  });

  it('should mint a fresh alias per generation (0/absent = the first), each idempotent, the old one still revealable', async () => {
    const contractId = newContract();
    const first = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice });
    const zero = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice, generation: 0 });
    expect(zero).toEqual({ ...first, created: false });
    const second = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice, generation: 1 });
    expect(second.alias).toMatch(/^anon:[a-z2-7]{12}$/);
    expect(second.alias).not.toBe(first.alias);
    expect(second.created).toBe(true);
    expect(JSON.parse(second.payloadJson)).toEqual({ alias: second.alias, contract_id: contractId, role: 'buyer' });
    const again = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice, generation: 1 });
    expect(again).toEqual({ ...second, created: false });
    const { rows } = await t.sql.query('SELECT alias, generation FROM party_aliases WHERE contract_id = $1 ORDER BY generation', [contractId]);
    expect(rows).toEqual([
      { alias: first.alias, generation: 0 },
      { alias: second.alias, generation: 1 },
    ]);
    // Reveals already made for the old alias stay valid: it still resolves.
    const reveal = await t.client.mintIdentityReveal({ contractId, alias: first.alias, revealTo: bob }, operator);
    expect(JSON.parse(reveal.payloadJson)).toMatchObject({ alias: first.alias, agent_id: alice });
  });

  it('should refuse an agent minting another agent’s alias, a bad request and a different agent for a minted role', async () => {
    const contractId = newContract();
    expect(
      await grpcError(t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice }, { actor: `agent:${bob}`, agentId: bob })),
    ).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'not_contract_party' });
    expect(await grpcError(t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_UNSPECIFIED, agentId: alice }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'validation_failed',
    });
    expect(await grpcError(t.client.mintPartyAlias({ contractId: '', role: PartyRole.PARTY_ROLE_BUYER, agentId: alice }))).toMatchObject({
      code: 'validation_failed',
    });
    const { rows } = await t.sql.query('SELECT count(*)::int AS n FROM party_aliases WHERE contract_id = $1', [contractId]);
    expect(rows[0].n).toBe(0);

    await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice });
    expect(await grpcError(t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: bob }))).toMatchObject({
      grpcCode: status.FAILED_PRECONDITION,
      code: 'alias_agent_mismatch',
    });
  });

  it('should keep the alias when the registry fails and store the token on the retry', async () => {
    const contractId = newContract();
    registry.failNext();
    expect(await grpcError(t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: carol }))).toMatchObject({
      grpcCode: status.UNAVAILABLE,
      code: 'registry_unavailable',
    });
    const { rows } = await t.sql.query('SELECT alias, object_id FROM party_aliases WHERE contract_id = $1', [contractId]);
    expect(rows).toEqual([{ alias: expect.stringMatching(/^anon:/), object_id: null }]);

    const retry = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: carol });
    expect(retry).toMatchObject({ alias: rows[0].alias, created: true });
    const after = await t.sql.query('SELECT object_id FROM party_aliases WHERE contract_id = $1', [contractId]);
    expect(after.rows[0].object_id).toBe(retry.objectId);
  });

  it('should mint a reveal for the aliased agent or the operator, readable by parties [reveal_to], idempotent', async () => {
    const contractId = newContract();
    const { alias } = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice });

    const reveal = await t.client.mintIdentityReveal({ contractId, alias, revealTo: bob }, { actor: `agent:${alice}`, agentId: alice });
    expect(reveal.created).toBe(true);
    expect(JSON.parse(reveal.payloadJson)).toEqual({ alias, agent_id: alice, contract_id: contractId, reveal_to: bob });
    expect(verifyCanonical(JSON.parse(reveal.payloadJson), reveal.signature, registry.exchangePublicKey)).toBe(true);
    expect(registry.objects.get(reveal.objectId)).toMatchObject({
      type: 'identity_reveal',
      visibility: registryV1.Visibility.VISIBILITY_PARTIES,
      parties: [bob],
    });

    const byOperator = await t.client.mintIdentityReveal({ contractId, alias, revealTo: bob }, operator);
    expect(byOperator).toEqual({ ...reveal, created: false });
    const toCarol = await t.client.mintIdentityReveal({ contractId, alias, revealTo: carol }, operator);
    expect(toCarol.objectId).not.toBe(reveal.objectId);
  });

  it('should refuse a reveal by anyone else, of an unknown alias, of another contract, or to an unknown agent', async () => {
    const contractId = newContract();
    const { alias } = await t.client.mintPartyAlias({ contractId, role: PartyRole.PARTY_ROLE_BUYER, agentId: alice });
    const stored = registry.objects.size;

    expect(await grpcError(t.client.mintIdentityReveal({ contractId, alias, revealTo: bob }, { actor: `agent:${bob}`, agentId: bob }))).toMatchObject({
      grpcCode: status.PERMISSION_DENIED,
      code: 'not_alias_owner',
    });
    expect(await grpcError(t.client.mintIdentityReveal({ contractId, alias, revealTo: bob }))).toMatchObject({ code: 'not_alias_owner' });
    expect(await grpcError(t.client.mintIdentityReveal({ contractId, alias: 'anon:aaaaaaaaaaaa', revealTo: bob }, operator))).toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: 'alias_not_found',
    });
    expect(await grpcError(t.client.mintIdentityReveal({ contractId: newContract(), alias, revealTo: bob }, operator))).toMatchObject({
      code: 'alias_not_found',
    });
    expect(await grpcError(t.client.mintIdentityReveal({ contractId, alias, revealTo: 'nobody:agent:x' }, operator))).toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: 'agent_not_found',
    });
    expect(await grpcError(t.client.mintIdentityReveal({ contractId, alias: 'alice', revealTo: bob }, operator))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'validation_failed',
    });
    expect(registry.objects.size).toBe(stored);
  });
});

describe('identity gRPC: minting without a configured registry', () => {
  let t: TestIdentity;
  beforeAll(async () => {
    t = await startTestIdentity({ name: 'identity_no_registry' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should answer 503 registry_unavailable', async () => {
    expect(await grpcError(t.client.mintPartyAlias({ contractId: 'ctr_x', role: PartyRole.PARTY_ROLE_BUYER, agentId: 'a' }))).toMatchObject({
      grpcCode: status.UNAVAILABLE,
      code: 'registry_unavailable',
    });
  });
});
