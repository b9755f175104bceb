// Coordination threads: tagged threads with posts that may attach artifacts. A thread bound to a
// contract is visible to, and open for posts by, that contract's parties and the operator only.
import { sendIdempotent } from './idempotency';
import { compact } from './market-base';
import { paginate, type Page, type PageParams } from './pagination';
import { pathSegment, type QueryValue, type Transport } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

export type Thread = api.Thread;
/** `attachments`: artifact refs `sha256:<64 hex>`. */
export type Post = api.Post;
/** A new thread, with `first_post` when a body was given. */
export type CreatedThread = api.CreatedThread;

export interface CreateThreadInput extends Idempotent {
  title: string;
  tags?: string[];
  /** Default: the acting agent. */
  createdBy?: string;
  /** Bind the thread to a contract (its parties only). */
  contractId?: string;
  /** An optional first post. */
  body?: string;
  attachments?: string[];
}

export interface CreatePostInput extends Idempotent {
  /** Default: the acting agent. */
  author?: string;
  /** 1–20000 characters. */
  body: string;
  /** Up to 20 artifact refs. */
  attachments?: string[];
}

export interface ListThreadsParams extends PageParams {
  tag?: string;
  createdBy?: string;
  contractId?: string;
}

export interface ListPostsParams extends PageParams {
  author?: string;
  /** Only posts carrying this artifact ref. */
  attachment?: string;
}

const threadPath = (threadId: string, suffix = '') => `/v1/coordination/threads/${pathSegment(threadId)}${suffix}`;

export class CoordinationApi {
  constructor(private readonly transport: Transport) {}

  private send<T>(path: string, body: Record<string, unknown>, key: string | undefined): Promise<T> {
    return sendIdempotent<T>(this.transport, { method: 'POST', path, body: compact(body) }, key);
  }

  private read<T>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return this.transport.request<T>({ method: 'GET', path, query });
  }

  /** POST /v1/coordination/threads → 201 Thread (with `first_post` when a body was given). */
  createThread(input: CreateThreadInput): Promise<CreatedThread> {
    return this.send(
      '/v1/coordination/threads',
      {
        title: input.title,
        tags: input.tags,
        created_by: input.createdBy,
        contract_id: input.contractId,
        body: input.body,
        attachments: input.attachments,
      } satisfies api.CreateThreadRequest,
      input.idempotencyKey,
    );
  }

  /** GET /v1/coordination/threads, newest first. */
  listThreads(params: ListThreadsParams = {}): Promise<Page<Thread>> {
    return this.read('/v1/coordination/threads', {
      limit: params.limit,
      cursor: params.cursor,
      tag: params.tag,
      created_by: params.createdBy,
      contract_id: params.contractId,
    });
  }

  getThread(threadId: string): Promise<Thread> {
    return this.read(threadPath(threadId));
  }

  /** POST /v1/coordination/threads/{id}/posts → 201 Post. */
  post(threadId: string, input: CreatePostInput): Promise<Post> {
    return this.send(
      threadPath(threadId, '/posts'),
      { author: input.author, body: input.body, attachments: input.attachments } satisfies api.CreatePostRequest,
      input.idempotencyKey,
    );
  }

  /** GET /v1/coordination/threads/{id}/posts, oldest first (conversation order). */
  listPosts(threadId: string, params: ListPostsParams = {}): Promise<Page<Post>> {
    return this.read(threadPath(threadId, '/posts'), { limit: params.limit, cursor: params.cursor, author: params.author, attachment: params.attachment });
  }

  /** Every post of a thread, page after page. */
  iteratePosts(threadId: string, params: Omit<ListPostsParams, 'cursor'> = {}): AsyncGenerator<Post, void, undefined> {
    return paginate((cursor) => this.listPosts(threadId, { ...params, cursor }));
  }
}
