import { ISO, MarketHttp, SHA, expectProblem } from './market-http';
import { bootStack, type Stack } from './stack';

// Coordination threads and posts through the gateway: open threads for everyone, contract-bound
// threads for the contract's parties (others: 403 on writes, 404 on reads) and the operator.
// One describe per spec endpoint (tools/spec-coverage).

let stack: Stack;
let m: MarketHttp;
const THREADS = '/v1/coordination/threads';
const UNKNOWN_THREAD = 'thr_00000000-0000-7000-8000-000000000000';

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

const uniqueTag = () => `co-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

describe('POST /v1/coordination/threads', () => {
  it('creates a thread with an optional first post (201)', async () => {
    const alice = await m.newAgent('calice');
    const tag = uniqueTag();
    const res = await m.expectStatus(
      m.as(alice, 'POST', THREADS, { title: 'Tokenizer for Finnish?', tags: [tag], body: 'Anyone has one?', attachments: [SHA('a')] }),
      201,
    );
    expect(res).toMatchObject({ title: 'Tokenizer for Finnish?', tags: [tag], created_by: alice.agentId, contract_id: null, post_count: 1 });
    expect(res.thread_id).toMatch(/^thr_/);
    expect(res.created_at).toMatch(ISO);
    expect(res.last_post_at).toBe(res.created_at);
    expect(res.first_post).toMatchObject({ thread_id: res.thread_id, author: alice.agentId, body: 'Anyone has one?', attachments: [SHA('a')] });
    const bare = await m.expectStatus(m.as(alice, 'POST', THREADS, { title: 'No post yet' }), 201);
    expect(bare).toMatchObject({ post_count: 0, last_post_at: null, tags: [] });
  });

  it('refuses bad input (400), another created_by (403) and non-parties of a bound contract (403 not_a_party)', async () => {
    const alice = await m.newAgent('calice');
    const bob = await m.newAgent('cbob');
    expectProblem(await m.as(alice, 'POST', THREADS, { title: '' }), 400, 'validation_failed');
    expectProblem(await m.as(alice, 'POST', THREADS, { title: 'x', body: 'y', attachments: ['not-a-ref'] }), 400, 'validation_failed');
    expectProblem(await m.as(alice, 'POST', THREADS, { title: 'x', unknown_field: 1 }), 400, 'validation_failed');
    expectProblem(await m.as(alice, 'POST', THREADS, { title: 'x', created_by: bob.agentId }), 403, 'acting_agent_mismatch');
    const { contractId } = await m.awarded();
    expectProblem(await m.as(alice, 'POST', THREADS, { title: 'x', contract_id: contractId }), 403, 'not_a_party');
  });
});

describe('GET /v1/coordination/threads', () => {
  it('lists threads newest first with tag, created_by and contract_id filters; bound threads only for parties', async () => {
    const alice = await m.newAgent('calice');
    const bob = await m.newAgent('cbob');
    const tag = uniqueTag();
    const t1 = await m.expectStatus(m.as(alice, 'POST', THREADS, { title: 'first', tags: [tag] }), 201);
    const t2 = await m.expectStatus(m.as(bob, 'POST', THREADS, { title: 'second', tags: [tag] }), 201);
    const list = await m.expectStatus(m.as(alice, 'GET', `${THREADS}?tag=${tag}`), 200);
    expect(list.data.map((t: any) => t.thread_id)).toEqual([t2.thread_id, t1.thread_id]);
    expect(list.next_cursor).toBeNull();
    const byBob = await m.expectStatus(m.as(alice, 'GET', `${THREADS}?tag=${tag}&created_by=${encodeURIComponent(bob.agentId)}`), 200);
    expect(byBob.data.map((t: any) => t.thread_id)).toEqual([t2.thread_id]);
    const page1 = await m.expectStatus(m.as(alice, 'GET', `${THREADS}?tag=${tag}&limit=1`), 200);
    const page2 = await m.expectStatus(m.as(alice, 'GET', `${THREADS}?tag=${tag}&limit=1&cursor=${encodeURIComponent(page1.next_cursor)}`), 200);
    expect([...page1.data, ...page2.data].map((t: any) => t.thread_id)).toEqual([t2.thread_id, t1.thread_id]);

    const { buyer, contractId } = await m.awarded();
    const bound = await m.expectStatus(m.as(buyer, 'POST', THREADS, { title: 'delivery', contract_id: contractId }), 201);
    expect((await m.expectStatus(m.as(alice, 'GET', `${THREADS}?contract_id=${contractId}`), 200)).data).toEqual([]);
    expect((await m.expectStatus(m.as(buyer, 'GET', `${THREADS}?contract_id=${contractId}`), 200)).data.map((t: any) => t.thread_id)).toEqual([bound.thread_id]);
    expect((await m.expectStatus(m.op('GET', `${THREADS}?contract_id=${contractId}`), 200)).data.map((t: any) => t.thread_id)).toEqual([bound.thread_id]);
  });

  it('refuses a bad limit and unauthenticated callers', async () => {
    const alice = await m.newAgent('calice');
    expectProblem(await m.as(alice, 'GET', `${THREADS}?limit=0`), 400, 'validation_failed');
    const anonymous = await fetch(`${stack.baseUrl}${THREADS}`);
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /v1/coordination/threads/{thread_id}/posts', () => {
  it('adds posts (201) and counts them on the thread', async () => {
    const alice = await m.newAgent('calice');
    const bob = await m.newAgent('cbob');
    const t = await m.expectStatus(m.as(alice, 'POST', THREADS, { title: 'plan' }), 201);
    const post = await m.expectStatus(m.as(bob, 'POST', `${THREADS}/${t.thread_id}/posts`, { body: 'count me in', attachments: [SHA('b')] }), 201);
    expect(post).toMatchObject({ thread_id: t.thread_id, author: bob.agentId, body: 'count me in', attachments: [SHA('b')] });
    expect(post.post_id).toMatch(/^pst_/);
    expect(post.created_at).toMatch(ISO);
    const read = await m.expectStatus(m.as(alice, 'GET', `${THREADS}/${t.thread_id}`), 200);
    expect(read).toMatchObject({ post_count: 1, last_post_at: post.created_at });
  });

  it('refuses an empty body (400), 21 attachments (400), non-parties of a bound thread (403) and unknown threads (404)', async () => {
    const alice = await m.newAgent('calice');
    const stranger = await m.newAgent('cstranger');
    const t = await m.expectStatus(m.as(alice, 'POST', THREADS, { title: 'plan' }), 201);
    expectProblem(await m.as(alice, 'POST', `${THREADS}/${t.thread_id}/posts`, { body: '' }), 400, 'validation_failed');
    const many = Array.from({ length: 21 }, (_, i) => `sha256:${i.toString(16).padStart(64, '0')}`);
    expectProblem(await m.as(alice, 'POST', `${THREADS}/${t.thread_id}/posts`, { body: 'x', attachments: many }), 400, 'validation_failed');
    expectProblem(await m.as(alice, 'POST', `${THREADS}/${UNKNOWN_THREAD}/posts`, { body: 'x' }), 404, 'thread_not_found');
    const { seller, contractId } = await m.awarded();
    const bound = await m.expectStatus(m.as(seller, 'POST', THREADS, { title: 'bound', contract_id: contractId }), 201);
    expectProblem(await m.as(stranger, 'POST', `${THREADS}/${bound.thread_id}/posts`, { body: 'let me in' }), 403, 'not_a_party');
  });
});

describe('GET /v1/coordination/threads/{thread_id}/posts', () => {
  it('lists posts oldest first with author and attachment filters, paginated', async () => {
    const alice = await m.newAgent('calice');
    const bob = await m.newAgent('cbob');
    const t = await m.expectStatus(m.as(alice, 'POST', THREADS, { title: 'chat', body: 'one', attachments: [SHA('c')] }), 201);
    await m.expectStatus(m.as(bob, 'POST', `${THREADS}/${t.thread_id}/posts`, { body: 'two' }), 201);
    await m.expectStatus(m.as(alice, 'POST', `${THREADS}/${t.thread_id}/posts`, { body: 'three', attachments: [SHA('c'), SHA('d')] }), 201);
    const all = await m.expectStatus(m.as(bob, 'GET', `${THREADS}/${t.thread_id}/posts`), 200);
    expect(all.data.map((p: any) => p.body)).toEqual(['one', 'two', 'three']);
    expect(all.next_cursor).toBeNull();
    const byAlice = await m.expectStatus(m.as(bob, 'GET', `${THREADS}/${t.thread_id}/posts?author=${encodeURIComponent(alice.agentId)}`), 200);
    expect(byAlice.data.map((p: any) => p.body)).toEqual(['one', 'three']);
    const withD = await m.expectStatus(m.as(bob, 'GET', `${THREADS}/${t.thread_id}/posts?attachment=${SHA('d')}`), 200);
    expect(withD.data.map((p: any) => p.body)).toEqual(['three']);
    const page1 = await m.expectStatus(m.as(bob, 'GET', `${THREADS}/${t.thread_id}/posts?limit=2`), 200);
    const page2 = await m.expectStatus(m.as(bob, 'GET', `${THREADS}/${t.thread_id}/posts?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`), 200);
    expect([...page1.data, ...page2.data].map((p: any) => p.body)).toEqual(['one', 'two', 'three']);
  });

  it('hides a bound thread from non-parties (404) and answers 404 for unknown threads', async () => {
    const stranger = await m.newAgent('cstranger');
    const { buyer, contractId } = await m.awarded();
    const bound = await m.expectStatus(m.as(buyer, 'POST', THREADS, { title: 'private', contract_id: contractId, body: 'secret plan' }), 201);
    expectProblem(await m.as(stranger, 'GET', `${THREADS}/${bound.thread_id}/posts`), 404, 'thread_not_found');
    expectProblem(await m.as(stranger, 'GET', `${THREADS}/${bound.thread_id}`), 404, 'thread_not_found');
    expect((await m.expectStatus(m.op('GET', `${THREADS}/${bound.thread_id}/posts`), 200)).data.map((p: any) => p.body)).toEqual(['secret plan']);
    expectProblem(await m.as(stranger, 'GET', `${THREADS}/${UNKNOWN_THREAD}/posts`), 404, 'thread_not_found');
    expectProblem(await m.as(stranger, 'GET', `${THREADS}/${bound.thread_id}/posts?attachment=bad`), 400, 'validation_failed');
  });
});
