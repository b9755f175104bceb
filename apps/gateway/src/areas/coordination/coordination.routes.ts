import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreatedThread,
  CreatePostBody,
  CreateThreadBody,
  ListPostsQuery,
  ListThreadsQuery,
  Post,
  PostPage,
  Thread,
  ThreadPage,
  ThreadParams,
} from './coordination.schemas';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { partyFromJson } from '../../lib/acting-agent';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { postToJson, threadToJson } from './coordination.mapper';

// Coordination threads (issue 6 §4) over CoordinationService: tagged threads with posts that may
// attach artifacts; a thread bound to a contract is for its parties and the operator only.
// Registered with prefix /v1.

const TAGS = ['Coordination'];
const BOUND_NOTE =
  'A thread bound to a contract is visible only to the contract’s parties (buyer, awarded seller, verifier) and the operator: ' +
  'anyone else gets 404 `thread_not_found` on reads (its existence does not leak) and 403 `not_a_party` on posts.';

const coordinationRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { coordination } = fastify;

  fastify.post(
    '/coordination/threads',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createThread',
        summary: 'Open a coordination thread',
        description:
          'With `body` (and `attachments`) the thread starts with a first post by the creator. With `contract_id` only the ' +
          'contract’s parties may create it (403 `not_a_party`; 404 `contract_not_found`). ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateThreadBody,
        response: { 201: CreatedThread, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await coordination.createThread(
        {
          title: b.title,
          tags: b.tags ?? [],
          createdBy: partyFromJson(b.created_by),
          contractId: b.contract_id,
          body: b.body,
          attachments: b.attachments ?? [],
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send({ ...threadToJson(res.thread), ...(res.firstPost ? { first_post: postToJson(res.firstPost) } : {}) });
    },
  );

  fastify.get(
    '/coordination/threads',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listThreads',
        summary: 'List coordination threads',
        description: 'Newest first; filters `tag`, `created_by`, `contract_id`; cursor pagination. ' + BOUND_NOTE,
        security: SECURITY.operator_or_agent,
        querystring: ListThreadsQuery,
        response: { 200: ThreadPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await coordination.listThreads(
        { page: pageFromQuery(q), tag: q.tag, createdBy: q.created_by, contractId: q.contract_id },
        request.auth.callOptions,
      );
      return { data: res.threads.map(threadToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/coordination/threads/:thread_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getThread',
        summary: 'Read a coordination thread',
        description: 'Errors: 404 `thread_not_found`. ' + BOUND_NOTE,
        security: SECURITY.operator_or_agent,
        params: ThreadParams,
        response: { 200: Thread, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await coordination.getThread({ threadId: request.params.thread_id }, request.auth.callOptions);
      return threadToJson(res.thread);
    },
  );

  fastify.post(
    '/coordination/threads/:thread_id/posts',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createPost',
        summary: 'Post in a coordination thread',
        description: 'Body 1–20000 characters, up to 20 artifact refs. Errors: 404 `thread_not_found`. ' + BOUND_NOTE + ' ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: ThreadParams,
        body: CreatePostBody,
        response: { 201: Post, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await coordination.createPost(
        {
          threadId: request.params.thread_id,
          author: partyFromJson(b.author),
          body: b.body,
          attachments: b.attachments ?? [],
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(postToJson(res.post));
    },
  );

  fastify.get(
    '/coordination/threads/:thread_id/posts',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listPosts',
        summary: 'List the posts of a thread',
        description: 'Oldest first (conversation order); filters `author`, `attachment`; cursor pagination. 404 `thread_not_found`. ' + BOUND_NOTE,
        security: SECURITY.operator_or_agent,
        params: ThreadParams,
        querystring: ListPostsQuery,
        response: { 200: PostPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await coordination.listPosts(
        { threadId: request.params.thread_id, page: pageFromQuery(q), author: q.author, attachment: q.attachment },
        request.auth.callOptions,
      );
      return { data: res.posts.map(postToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );
};

export default coordinationRoutes;
