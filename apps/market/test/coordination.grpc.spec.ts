import { status } from '@grpc/grpc-js';
import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { marketV1, marketV1Coordination } from '@exchange/proto';
import { awardedContract, contractInput, grpcError, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

type CoordinationClient = PromiseClient<typeof marketV1Coordination.CoordinationServiceService>;
const ref = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`;

describe('market coordination: threads and posts (gRPC)', () => {
  let h: MarketHarness;
  let co: CoordinationClient;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_coordination' });
    co = createServiceClient(marketV1Coordination.CoordinationServiceService, `127.0.0.1:${h.market.grpcPort}`);
  }, 120_000);
  afterAll(async () => {
    co?.close();
    await h?.close();
  });

  const thread = (agent: TestAgent, over: Partial<marketV1Coordination.CreateThreadRequest> = {}) =>
    co.createThread(marketV1Coordination.CreateThreadRequest.fromPartial({ title: 'Who has a tokenizer?', tags: ['nlp'], ...over }), h.as(agent));
  const post = (agent: TestAgent, threadId: string, over: Partial<marketV1Coordination.CreatePostRequest> = {}) =>
    co.createPost(marketV1Coordination.CreatePostRequest.fromPartial({ threadId, body: 'I do', ...over }), h.as(agent));
  const all = { limit: 200, cursor: '' };

  it('should create an open thread with its first post, count posts in order and emit events', async () => {
    const alice = h.newAgent('alice');
    const bob = h.newAgent('bob');
    const tag = `t${Date.now().toString(36)}`;
    const created = await thread(alice, { tags: [tag, 'nlp'], body: 'Need a BPE tokenizer', attachments: [ref(1)] });
    const t = created.thread!;
    expect(t.threadId).toMatch(/^thr_[0-9a-f-]{36}$/);
    expect(t).toMatchObject({ title: 'Who has a tokenizer?', tags: [tag, 'nlp'], createdBy: alice.agentId, postCount: 1 });
    expect(t.contractId).toBeUndefined();
    expect(t.lastPostAt).toEqual(t.createdAt);
    expect(created.firstPost).toMatchObject({ threadId: t.threadId, author: alice.agentId, body: 'Need a BPE tokenizer', attachments: [ref(1)] });

    const reply = (await post(bob, t.threadId, { body: 'Here', attachments: [ref(2), ref(1)] })).post!;
    expect(reply.postId).toMatch(/^pst_/);
    const third = (await post(alice, t.threadId, { body: 'Thanks' })).post!;
    const read = (await co.getThread({ threadId: t.threadId }, h.as(bob))).thread!;
    expect(read).toMatchObject({ postCount: 3, lastPostAt: third.createdAt });

    const posts = await co.listPosts({ threadId: t.threadId, page: all }, h.as(bob));
    expect(posts.posts.map((p) => p.body)).toEqual(['Need a BPE tokenizer', 'Here', 'Thanks']);
    expect((await co.listPosts({ threadId: t.threadId, author: bob.agentId, page: all }, h.as(bob))).posts.map((p) => p.postId)).toEqual([reply.postId]);
    expect((await co.listPosts({ threadId: t.threadId, attachment: ref(1), page: all }, h.as(bob))).posts.map((p) => p.body)).toEqual([
      'Need a BPE tokenizer',
      'Here',
    ]);
    const p1 = await co.listPosts({ threadId: t.threadId, page: { limit: 2, cursor: '' } }, h.as(bob));
    const p2 = await co.listPosts({ threadId: t.threadId, page: { limit: 2, cursor: p1.page!.nextCursor } }, h.as(bob));
    expect([...p1.posts, ...p2.posts].map((p) => p.body)).toEqual(['Need a BPE tokenizer', 'Here', 'Thanks']);
    expect(p2.page!.nextCursor).toBe('');

    expect((await h.outbox(t.threadId)).map((e) => e.type)).toEqual(['exchange.market.thread.created']);
    expect((await h.outbox(reply.postId)).map((e) => e.type)).toEqual(['exchange.market.post.created']);

    const byTag = await co.listThreads({ tag, page: all }, h.as(bob));
    expect(byTag.threads.map((x) => x.threadId)).toEqual([t.threadId]);
    const second = (await thread(alice, { tags: [tag] })).thread!;
    expect(second.postCount).toBe(0);
    expect(second.lastPostAt).toBeUndefined();
    expect((await co.listThreads({ tag, page: all }, h.as(bob))).threads.map((x) => x.threadId)).toEqual([second.threadId, t.threadId]);
    expect((await co.listThreads({ tag, createdBy: bob.agentId, page: all }, h.as(bob))).threads).toEqual([]);
    const first = await co.listThreads({ tag, page: { limit: 1, cursor: '' } }, h.as(bob));
    expect(first.threads.map((x) => x.threadId)).toEqual([second.threadId]);
    expect((await co.listThreads({ tag, page: { limit: 1, cursor: first.page!.nextCursor } }, h.as(bob))).threads.map((x) => x.threadId)).toEqual([t.threadId]);
  });

  it('should refuse bad input, a mismatched acting agent, frozen agents and unknown threads, storing nothing', async () => {
    const alice = h.newAgent('alice');
    const bob = h.newAgent('bob');
    const count = async () => (await h.marketSql.query('SELECT count(*)::int AS n FROM threads WHERE created_by = $1', [alice.agentId])).rows[0].n;
    const field = (f: string) => ({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed', details: { field: f } });
    expect(await grpcError(thread(alice, { title: '' }))).toMatchObject(field('title'));
    expect(await grpcError(thread(alice, { title: 'x'.repeat(201) }))).toMatchObject(field('title'));
    expect(await grpcError(thread(alice, { tags: ['Bad Tag'] }))).toMatchObject(field('tags'));
    expect(await grpcError(thread(alice, { body: 'b', attachments: ['sha256:nothex'] }))).toMatchObject(field('attachments'));
    expect(await grpcError(thread(alice, { body: 'b', attachments: Array.from({ length: 21 }, (_, i) => ref(i)) }))).toMatchObject(field('attachments'));
    expect(await grpcError(thread(alice, { attachments: [ref(1)] }))).toMatchObject(field('attachments'));
    expect(await grpcError(thread(alice, { createdBy: bob.agentId }))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'acting_agent_mismatch' });
    expect(await count()).toBe(0);

    const t = (await thread(alice)).thread!;
    expect(await grpcError(post(alice, t.threadId, { body: '' }))).toMatchObject(field('body'));
    expect(await grpcError(post(alice, t.threadId, { body: 'x'.repeat(20001) }))).toMatchObject(field('body'));
    expect(await grpcError(post(alice, t.threadId, { author: bob.agentId }))).toMatchObject({ code: 'acting_agent_mismatch' });
    expect(await grpcError(post(alice, 'thr_00000000-0000-7000-8000-000000000000'))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'thread_not_found' });
    expect(await grpcError(co.listPosts({ threadId: t.threadId, attachment: 'nope', page: all }, h.as(alice)))).toMatchObject(field('attachment'));
    h.identity.freeze(bob.agentId);
    expect(await grpcError(post(bob, t.threadId))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'agent_frozen' });
    expect(await grpcError(thread(bob))).toMatchObject({ code: 'agent_frozen' });
    expect((await co.getThread({ threadId: t.threadId }, h.as(alice))).thread!.postCount).toBe(0);
    // An operator acting for nobody names the creator.
    expect(await grpcError(co.createThread(marketV1Coordination.CreateThreadRequest.fromPartial({ title: 'x' }), h.operator()))).toMatchObject(field('created_by'));
  });

  it('should count concurrent posts exactly and replay an idempotent create', async () => {
    const alice = h.newAgent('alice');
    const t = (await thread(alice)).thread!;
    await Promise.all(Array.from({ length: 8 }, (_, i) => post(alice, t.threadId, { body: `post ${i}` })));
    const read = (await co.getThread({ threadId: t.threadId }, h.as(alice))).thread!;
    expect(read.postCount).toBe(8);
    const posts = (await co.listPosts({ threadId: t.threadId, page: all }, h.as(alice))).posts;
    expect(posts).toHaveLength(8);
    expect(read.lastPostAt).toEqual(posts.at(-1)!.createdAt);

    const first = await thread(alice, { title: 'once', idempotencyKey: 'thread-once' });
    const again = await thread(alice, { title: 'once', idempotencyKey: 'thread-once' });
    expect(again).toEqual({ ...first, idempotentReplayed: true });
    expect(await grpcError(thread(alice, { title: 'other', idempotencyKey: 'thread-once' }))).toMatchObject({ code: 'idempotency_key_reused' });
    const { rows } = await h.marketSql.query("SELECT count(*)::int AS n FROM threads WHERE created_by = $1 AND title = 'once'", [alice.agentId]);
    expect(rows[0].n).toBe(1);
  });

  it('should keep a contract-bound thread to the buyer, the awarded seller, the verifier and the operator', async () => {
    const { buyer, seller, contract } = await awardedContract(h);
    const stranger = h.newAgent('stranger');
    const id = contract.contractId;
    expect(await grpcError(thread(stranger, { contractId: id }))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'not_a_party' });
    expect(await grpcError(thread(buyer, { contractId: 'ctr_00000000-0000-7000-8000-000000000000' }))).toMatchObject({ code: 'contract_not_found' });
    const t = (await thread(buyer, { contractId: id, title: 'Delivery plan', body: 'When?' })).thread!;
    expect(t.contractId).toBe(id);
    await post(seller, t.threadId, { body: 'Tomorrow' });
    expect(await grpcError(post(stranger, t.threadId))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'not_a_party' });
    expect(await grpcError(co.getThread({ threadId: t.threadId }, h.as(stranger)))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'thread_not_found' });
    expect(await grpcError(co.listPosts({ threadId: t.threadId, page: all }, h.as(stranger)))).toMatchObject({ code: 'thread_not_found' });
    expect(await grpcError(co.getThread({ threadId: t.threadId }, {}))).toMatchObject({ code: 'thread_not_found' });
    expect((await co.listThreads({ contractId: id, page: all }, h.as(stranger))).threads).toEqual([]);
    expect((await co.listThreads({ contractId: id, page: all }, h.as(seller))).threads.map((x) => x.threadId)).toEqual([t.threadId]);
    expect((await co.listThreads({ contractId: id, page: all }, h.operator())).threads.map((x) => x.threadId)).toEqual([t.threadId]);
    expect((await co.getThread({ threadId: t.threadId }, h.operator())).thread!.postCount).toBe(2);
    await co.createPost(marketV1Coordination.CreatePostRequest.fromPartial({ threadId: t.threadId, author: stranger.agentId, body: 'operator note' }), h.operator());
    expect((await co.listPosts({ threadId: t.threadId, page: all }, h.as(buyer))).posts.map((p) => p.author)).toEqual([
      buyer.agentId,
      seller.agentId,
      stranger.agentId,
    ]);

    // The named verifier of a contract is a party too.
    const verifier = h.newAgent('verifier');
    await h.client.registerVerifier(marketV1.RegisterVerifierRequest.fromPartial({ name: 'V', tags: [] }), h.as(verifier));
    const vbuyer = h.newAgent('vbuyer');
    const withVerifier = (
      await h.client.createContract(
        contractInput({ verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_VERIFIER, verifierId: verifier.agentId }),
        h.as(vbuyer),
      )
    ).contract!;
    const vt = (await thread(verifier, { contractId: withVerifier.contractId })).thread!;
    expect((await co.getThread({ threadId: vt.threadId }, h.as(vbuyer))).thread!.createdBy).toBe(verifier.agentId);
  });
});
