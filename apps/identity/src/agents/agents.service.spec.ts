import { status } from '@grpc/grpc-js';
import { DomainError } from '@exchange/platform';
import { sign, toBase64 } from '@exchange/crypto';
import { newKey, signedRegistration } from '../../test/factories/agent.factory';
import { InMemoryAgents, recordingEvents } from '../../test/fakes/in-memory-agents';
import { AgentService } from './agents.service';
import { REASON_MAX_LENGTH } from './validation';

const operator = { actor: 'operator:ops', traceId: 'trace-1' };

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe(AgentService.name, () => {
  let store: InMemoryAgents;
  let sut: AgentService;
  let clock: number;

  beforeEach(() => {
    store = new InMemoryAgents();
    clock = Date.parse('2026-05-01T00:00:00.000Z');
    sut = new AgentService({
      reader: store,
      writer: store,
      events: recordingEvents,
      environment: 'sandbox',
      now: () => new Date((clock += 1000)),
    });
  });

  describe('register', () => {
    it('should store the agent with its keys in order and emit agent.registered', async () => {
      const { input } = signedRegistration({ extraKeys: 2 });
      const agent = await sut.register(input, operator);
      expect(agent.keys.map((k) => [k.pubkey, k.primary, k.status])).toEqual([
        [input.primaryPubkey, true, 'active'],
        [input.pubkeySet[0], false, 'active'],
        [input.pubkeySet[1], false, 'active'],
      ]);
      expect(agent).toMatchObject({ identityLevel: 'SANDBOX_UNVERIFIED', status: 'active', frozenReason: null });
      expect(store.outbox.map((e) => e.type)).toEqual(['exchange.identity.agent.registered']);
      expect(store.nonces.has(input.proofNonce)).toBe(true);
    });

    it('should answer agent_id_exists with the exact message for a taken agent_id', async () => {
      const first = signedRegistration();
      await sut.register(first.input, operator);
      const err = await rejection(sut.register(signedRegistration({ agentId: first.input.agentId }).input, operator));
      expect([err.code, err.message]).toEqual(['agent_id_exists', 'agent_id already exists']);
      expect(store.outbox).toHaveLength(1);
    });

    it('should report agent_id_exists when the very same registration is replayed', async () => {
      const { input } = signedRegistration();
      await sut.register(input, operator);
      expect((await rejection(sut.register(input, operator))).code).toBe('agent_id_exists');
    });

    it('should refuse a nonce that was used by another registration', async () => {
      const first = signedRegistration();
      await sut.register(first.input, operator);
      const err = await rejection(sut.register(signedRegistration({ proofNonce: first.input.proofNonce }).input, operator));
      expect(err.code).toBe('proof_nonce_used');
    });

    it('should store nothing and consume no nonce when the proof fails', async () => {
      const { input } = signedRegistration();
      const forged = { ...input, proofSignature: toBase64(sign(new Uint8Array([1]), newKey().privateKey)) };
      const err = await rejection(sut.register(forged, operator));
      expect([err.code, err.message]).toEqual(['key_proof_failed', 'key ownership proof failed']);
      expect(store.agents.size).toBe(0);
      expect(store.nonces.size).toBe(0);
      expect(store.outbox).toHaveLength(0);
    });

    it('should refuse keys bound to another agent with pubkey_in_use naming the key, after the proof, storing nothing', async () => {
      const owner = signedRegistration({ extraKeys: 1 });
      await sut.register(owner.input, operator);
      const stealPrimary = signedRegistration({ primaryPubkey: owner.input.primaryPubkey });
      // Without the owner's private key the proof fails first: the key's binding is not revealed.
      expect((await rejection(sut.register(stealPrimary.input, operator))).code).toBe('key_proof_failed');
      const listed = signedRegistration({ extraKeys: 1 });
      const err = await rejection(sut.register({ ...listed.input, pubkeySet: [...listed.input.pubkeySet, owner.input.pubkeySet[0]!] }, operator));
      expect([err.code, err.details]).toEqual(['pubkey_in_use', { pointer: '/pubkey_set/1' }]);
      expect(store.agents.size).toBe(1);
      expect(store.nonces.has(listed.input.proofNonce)).toBe(false);
      expect(store.outbox).toHaveLength(1);
    });

    it('should refuse mainnet levels in sandbox', async () => {
      const err = await rejection(sut.register(signedRegistration({ identityLevel: 'MAINNET_BASIC' }).input, operator));
      expect(err.code).toBe('identity_level_not_allowed');
      expect(store.agents.size).toBe(0);
    });
  });

  describe('get and list', () => {
    it('should answer agent_not_found for an unknown agent', async () => {
      const err = await rejection(sut.get('acme:agent:nobody'));
      expect([err.code, err.message]).toEqual(['agent_not_found', 'agent acme:agent:nobody not found']);
    });

    it('should page newest first without gaps or repeats', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await sut.register(signedRegistration().input, operator)).agentId);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await sut.list({ limit: 2, cursor }, { identityLevel: null, status: null });
        seen.push(...page.data.map((a) => a.agentId));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());
    });

    it('should filter by status', async () => {
      const a = await sut.register(signedRegistration().input, operator);
      await sut.register(signedRegistration().input, operator);
      await sut.freeze(a.agentId, 'review', operator);
      const page = await sut.list({ limit: null, cursor: null }, { identityLevel: null, status: 'frozen' });
      expect(page.data.map((x) => x.agentId)).toEqual([a.agentId]);
    });

    it('should answer a batch with each agent found once, unknown and malformed ids absent', async () => {
      const a = await sut.register(signedRegistration().input, operator);
      const b = await sut.register(signedRegistration().input, operator);
      await sut.freeze(b.agentId, 'review', operator);
      const found = await sut.getMany([a.agentId, 'acme:agent:nobody', b.agentId, a.agentId, 'not an id', '']);
      expect(found.map((x) => [x.agentId, x.status]).sort()).toEqual([[a.agentId, 'active'], [b.agentId, 'frozen']].sort());
      expect(await sut.getMany([])).toEqual([]);
    });

    it('should leave ids registration could not have accepted out of the query: a NUL byte or an over-long id is absent, its batch-mates found', async () => {
      const a = await sut.register(signedRegistration().input, operator);
      const read = jest.spyOn(store, 'getMany');
      const nul = `${a.agentId}\u0000`;
      const overLong = `acme:agent:${'x'.repeat(64)}`; // a name part holds at most 63 characters
      expect((await sut.getMany([nul, a.agentId, overLong, 'acme:agent:nobody'])).map((x) => x.agentId)).toEqual([a.agentId]);
      expect(read.mock.calls).toEqual([[[a.agentId, 'acme:agent:nobody']]]);
      expect(await sut.getMany([nul, overLong])).toEqual([]);
      expect(read).toHaveBeenCalledTimes(1); // nothing well-formed: no query at all
    });

    it('should take 1000 ids in a batch and refuse 1001 with validation_failed', async () => {
      const a = await sut.register(signedRegistration().input, operator);
      const ids = (n: number) => [a.agentId, ...Array.from({ length: n - 1 }, (_, i) => `acme:agent:n${i}`)];
      expect((await sut.getMany(ids(1000))).map((x) => x.agentId)).toEqual([a.agentId]);
      const err = await rejection(sut.getMany(ids(1001)));
      expect([err.grpcCode, err.code, err.details]).toEqual([status.INVALID_ARGUMENT, 'validation_failed', { errors: [{ pointer: '/agent_ids', message: 'must hold at most 1000 ids' }] }]);
    });

    it('should refuse limit 201 and a forged cursor', async () => {
      expect((await rejection(sut.list({ limit: 201, cursor: null }, { identityLevel: null, status: null }))).code).toBe(
        'invalid_limit',
      );
      expect((await rejection(sut.list({ limit: 2, cursor: 'garbage' }, { identityLevel: null, status: null }))).code).toBe(
        'invalid_cursor',
      );
    });
  });

  describe('changeLevel', () => {
    it('should record who changed the level and why, and emit one event', async () => {
      const { agentId } = await sut.register(signedRegistration().input, operator);
      const { agent, transition } = await sut.changeLevel(agentId, 'MAINNET_BASIC', 'kyc done', operator);
      expect(agent.identityLevel).toBe('MAINNET_BASIC');
      expect(transition).toMatchObject({ fromLevel: 'SANDBOX_UNVERIFIED', toLevel: 'MAINNET_BASIC', reason: 'kyc done', actor: 'operator:ops' });
      expect(transition.transitionId).toMatch(/^itr_/);
      expect(store.outbox.map((e) => e.type)).toEqual(['exchange.identity.agent.registered', 'exchange.identity.agent.level_changed']);
    });

    it('should record actor "unknown" when the caller is not named', async () => {
      const { agentId } = await sut.register(signedRegistration().input, operator);
      const { transition } = await sut.changeLevel(agentId, 'MAINNET_BASIC', 'r', { actor: null, traceId: null });
      expect(transition.actor).toBe('unknown');
    });

    it.each([
      ['blank', '   '],
      ['too long', 'x'.repeat(REASON_MAX_LENGTH + 1)],
    ])('should refuse a %s reason', async (_what, reason) => {
      const { agentId } = await sut.register(signedRegistration().input, operator);
      expect((await rejection(sut.changeLevel(agentId, 'MAINNET_BASIC', reason, operator))).code).toBe('validation_failed');
    });

    it('should require a level', async () => {
      const { agentId } = await sut.register(signedRegistration().input, operator);
      expect((await rejection(sut.changeLevel(agentId, null, 'r', operator))).code).toBe('validation_failed');
    });

    it('should list transitions newest first and 404 for an unknown agent', async () => {
      const { agentId } = await sut.register(signedRegistration().input, operator);
      await sut.changeLevel(agentId, 'MAINNET_BASIC', 'up', operator);
      await sut.changeLevel(agentId, 'SANDBOX_UNVERIFIED', 'down', operator);
      const page = await sut.listTransitions(agentId, { limit: null, cursor: null });
      expect(page.data.map((t) => t.reason)).toEqual(['down', 'up']);
      expect((await rejection(sut.listTransitions('acme:agent:nobody', { limit: null, cursor: null }))).code).toBe(
        'agent_not_found',
      );
    });
  });

  describe('revokeKey', () => {
    it('should accept the key in base64url form', async () => {
      const { input } = signedRegistration({ extraKeys: 1 });
      const { agentId } = await sut.register(input, operator);
      const urlForm = input.pubkeySet[0].replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const agent = await sut.revokeKey(agentId, urlForm, 'rotated', operator);
      expect(agent.keys[1]).toMatchObject({ pubkey: input.pubkeySet[0], status: 'revoked', revokedReason: 'rotated' });
    });

    it('should refuse a malformed key with validation_failed', async () => {
      const { agentId } = await sut.register(signedRegistration().input, operator);
      expect((await rejection(sut.revokeKey(agentId, 'short', 'r', operator))).code).toBe('validation_failed');
    });
  });

  describe('verifySignature', () => {
    it('should accept any active key, refuse revoked and foreign keys, and return the agent', async () => {
      const { input, primary, extra } = signedRegistration({ extraKeys: 1 });
      const { agentId } = await sut.register(input, operator);
      const message = new TextEncoder().encode('hello');
      const by = (key: Uint8Array) => toBase64(sign(message, key));

      expect(await sut.verifySignature(agentId, message, by(extra[0].privateKey))).toMatchObject({
        valid: true,
        pubkey: extra[0].pubkey,
      });
      await sut.revokeKey(agentId, extra[0].pubkey, 'lost', operator);
      const revoked = await sut.verifySignature(agentId, message, by(extra[0].privateKey));
      expect([revoked.valid, revoked.pubkey, revoked.agent?.agentId]).toEqual([false, '', agentId]);
      expect((await sut.verifySignature(agentId, message, by(newKey().privateKey))).valid).toBe(false);
      expect((await sut.verifySignature(agentId, message, by(primary.privateKey))).valid).toBe(true);
      expect((await sut.verifySignature(agentId, new TextEncoder().encode('hellO'), by(primary.privateKey))).valid).toBe(false);
    });

    it('should answer invalid without an agent for an unknown agent, and invalid for junk signatures', async () => {
      const { agentId } = await sut.register(signedRegistration().input, operator);
      expect(await sut.verifySignature('acme:agent:nobody', new Uint8Array(), toBase64(new Uint8Array(64)))).toEqual({
        valid: false,
        pubkey: '',
        agent: null,
      });
      expect((await sut.verifySignature(agentId, new Uint8Array(), 'not-base64')).valid).toBe(false);
      expect((await sut.verifySignature(agentId, new Uint8Array(), toBase64(new Uint8Array(32)))).valid).toBe(false);
    });
  });
});
