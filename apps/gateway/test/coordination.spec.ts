import { errors } from '@exchange/platform';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Coordination threads through the gateway (fake market): creation with a first post, posts,
// filters, the acting agent as default author, validation (body size, attachment refs, unknown
// fields), auth, and the market's party codes carried through.

let h: Harness;
let agent: TestAgent;
const SHA = `sha256:${'ab'.repeat(32)}`;

beforeAll(async () => {
  h = await startHarness();
  agent = new TestAgent(uniqueAgentId('coord'));
  await registerAgent(h.app, agent);
});

afterAll(async () => {
  await h.close();
});

function signed(method: 'GET' | 'POST', url: string, body?: unknown) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return h.app.inject({
    method,
    url,
    headers: { ...agent.signedHeaders(method, url, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: text }),
  });
}

async function newThread(over: Record<string, unknown> = {}) {
  const res = await signed('POST', '/v1/coordination/threads', { title: 'Invoice schema', tags: ['data'], ...over });
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('POST /v1/coordination/threads', () => {
  it('should create a thread with a first post, defaulting created_by to the signer', async () => {
    const res = await signed('POST', '/v1/coordination/threads', { title: 'Invoice schema', tags: ['data'], body: 'draft', attachments: [SHA], idempotency_key: 'thr-1' });
    expect(res.statusCode).toBe(201);
    expect(h.market.lastCall('createThread').request).toEqual({
      title: 'Invoice schema',
      tags: ['data'],
      createdBy: '',
      body: 'draft',
      attachments: [SHA],
      idempotencyKey: 'thr-1',
    });
    expect(h.market.lastCall('createThread').ctx).toMatchObject({ agentId: agent.agentId });
    const body = res.json();
    expect(body).toMatchObject({ title: 'Invoice schema', created_by: agent.agentId, contract_id: null, post_count: 1 });
    expect(body.first_post).toMatchObject({ author: agent.agentId, body: 'draft', attachments: [SHA], thread_id: body.thread_id });
  });

  it('should leave first_post out without a body', async () => {
    expect(await newThread()).not.toHaveProperty('first_post');
  });

  it.each([
    ['a missing title', { tags: [] }],
    ['a bad attachment ref', { title: 't', body: 'b', attachments: ['sha256:xyz'] }],
    ['21 attachments', { title: 't', body: 'b', attachments: Array(21).fill(SHA) }],
    ['an empty body', { title: 't', body: '' }],
    ['an unknown field', { title: 't', pinned: true }],
  ])('should answer 400 for %s', async (_name, payload) => {
    expectProblem(await signed('POST', '/v1/coordination/threads', payload), 400, 'validation_failed');
  });

  it('should carry 403 not_a_party for a contract the caller is not a party of, and 401 without credentials', async () => {
    h.market.failNext('createThread', errors.permissionDenied('not_a_party', 'only the contract’s parties may post'));
    expectProblem(await signed('POST', '/v1/coordination/threads', { title: 't', contract_id: 'ctr_other' }), 403, 'not_a_party');
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/coordination/threads', payload: { title: 't' } }), 401, 'unauthenticated');
  });
});

describe('GET /v1/coordination/threads', () => {
  it('should pass the filters and answer a page', async () => {
    await newThread();
    const res = await signed('GET', `/v1/coordination/threads?tag=data&created_by=${encodeURIComponent(agent.agentId)}&contract_id=ctr_1&limit=2`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listThreads').request).toEqual({ page: { limit: 2, cursor: '' }, tag: 'data', createdBy: agent.agentId, contractId: 'ctr_1' });
    expect(res.json().data.length).toBeGreaterThan(0);
  });

  it('should answer 400 for a malformed created_by', async () => {
    expectProblem(await signed('GET', '/v1/coordination/threads?created_by=bob'), 400, 'validation_failed');
  });
});

describe('GET /v1/coordination/threads/{thread_id}', () => {
  it('should read a thread and carry 404 thread_not_found', async () => {
    const t = await newThread();
    expect((await signed('GET', `/v1/coordination/threads/${t.thread_id}`)).json()).toEqual({ ...t });
    expectProblem(await signed('GET', '/v1/coordination/threads/thr_nope'), 404, 'thread_not_found');
  });
});

describe('POST /v1/coordination/threads/{thread_id}/posts', () => {
  it('should post as the acting agent (operator + X-Agent-Id) and answer 201', async () => {
    const t = await newThread();
    const res = await h.app.inject({
      method: 'POST',
      url: `/v1/coordination/threads/${t.thread_id}/posts`,
      headers: operator({ 'x-agent-id': agent.agentId }),
      payload: { body: 'second', attachments: [SHA] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ thread_id: t.thread_id, author: agent.agentId, body: 'second', attachments: [SHA] });
    expect(h.market.lastCall('createPost').ctx).toMatchObject({ actor: 'operator:default', agentId: agent.agentId });
  });

  it('should answer 400 for a body over 20000 characters and 404 for an unknown thread', async () => {
    const t = await newThread();
    expectProblem(await signed('POST', `/v1/coordination/threads/${t.thread_id}/posts`, { body: 'x'.repeat(20_001) }), 400, 'validation_failed');
    expectProblem(await signed('POST', '/v1/coordination/threads/thr_nope/posts', { body: 'x' }), 404, 'thread_not_found');
  });
});

describe('GET /v1/coordination/threads/{thread_id}/posts', () => {
  it('should pass author and attachment filters and answer posts oldest first', async () => {
    const t = await newThread({ body: 'one' });
    await signed('POST', `/v1/coordination/threads/${t.thread_id}/posts`, { body: 'two' });
    const res = await signed('GET', `/v1/coordination/threads/${t.thread_id}/posts?author=${encodeURIComponent(agent.agentId)}&attachment=${SHA}`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listPosts').request).toEqual({ threadId: t.thread_id, page: { limit: 0, cursor: '' }, author: agent.agentId, attachment: SHA });
    expect(res.json().data.map((p: { body: string }) => p.body)).toEqual(['one', 'two']);
  });

  it('should answer 400 for a malformed attachment filter', async () => {
    const t = await newThread();
    expectProblem(await signed('GET', `/v1/coordination/threads/${t.thread_id}/posts?attachment=abc`), 400, 'validation_failed');
  });
});
