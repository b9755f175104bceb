import { errors, newId } from '@exchange/platform';
import * as contractsRepo from '../contracts/contracts.repo';
import type { Page } from '../data/repo-kit';
import { actingAgent, isOperator, resolveParty, type Caller } from '../domain/caller';
import type { Contract } from '../domain/model';
import * as v from '../domain/validation';
import type { MarketRuntime } from '../service/runtime';
import { inTransaction, pageQuery, type PageRequest } from '../service/service-kit';
import { coordinationEvents } from './coordination.events';
import * as crepo from './coordination.repo';
import { attachmentFilter, attachments, mayUse, notAParty, postBody, threadTitle, type Post, type Thread } from './thread';

export interface NewThread {
  title: string;
  tags: readonly string[];
  createdBy: string;
  contractId?: string;
  body?: string;
  attachments: readonly string[];
}

export interface ThreadQuery {
  page?: PageRequest;
  tag?: string;
  createdBy?: string;
  contractId?: string;
}

export interface NewPost {
  threadId: string;
  author: string;
  body: string;
  attachments: readonly string[];
}

export interface PostQuery {
  threadId: string;
  page?: PageRequest;
  author?: string;
  attachment?: string;
}

const threadNotFound = (id: string) => errors.notFound('thread', id || '(empty)');

export type CoordinationDeps = Pick<MarketRuntime, 'pool' | 'notify' | 'clock' | 'agents'>;

/**
 * Coordination threads (CoordinationService). A thread bound to a contract is for its parties
 * (buyer, awarded seller, verifier) and the operator: others get 403 not_a_party when writing and
 * 404 thread_not_found when reading, so a bound thread's existence does not leak through reads.
 */
export class CoordinationService {
  constructor(private readonly ctx: CoordinationDeps) {}

  private tx<T>(fn: Parameters<typeof inTransaction<T>>[1]): Promise<T> {
    return inTransaction(this.ctx, fn);
  }

  /** The thread if the caller may read it; 404 thread_not_found otherwise. */
  private async visibleThread(threadId: string, caller: Caller): Promise<Thread> {
    const t = await crepo.getThread(this.ctx.pool, threadId);
    if (!t) throw threadNotFound(threadId);
    if (t.contractId !== null) {
      const c = await contractsRepo.getContract(this.ctx.pool, t.contractId);
      if (!c || !mayUse(caller, actingAgent(caller), c)) throw threadNotFound(threadId);
    }
    return t;
  }

  async createThread(req: NewThread, caller: Caller): Promise<{ thread: Thread; firstPost: Post | null }> {
    const createdBy = resolveParty(caller, 'created_by', req.createdBy);
    const title = threadTitle(req.title);
    const tags = v.tags(req.tags);
    const body = req.body === undefined ? null : postBody(req.body);
    const files = attachments(req.attachments);
    if (body === null && files.length > 0) v.invalid('attachments', 'attachments belong to the first post: give a body too');
    const contractId = req.contractId === undefined || req.contractId === '' ? null : req.contractId;
    let contract: Contract | null = null;
    if (contractId !== null) {
      contract = await contractsRepo.getContract(this.ctx.pool, contractId);
      if (!contract) throw errors.notFound('contract', contractId);
      if (!mayUse(caller, createdBy, contract)) throw notAParty(contractId);
    }
    await this.ctx.agents.active(createdBy);
    const now = this.ctx.clock();
    const thread: Thread = {
      threadId: newId('thr'),
      title,
      tags,
      createdBy,
      contractId,
      postCount: body === null ? 0 : 1,
      lastPostAt: body === null ? null : now,
      createdAt: now,
      updatedAt: now,
    };
    const firstPost: Post | null =
      body === null ? null : { postId: newId('pst'), threadId: thread.threadId, author: createdBy, body, attachments: files, createdAt: now };
    await this.tx(async (client) => {
      await crepo.insertThread(client, thread);
      await coordinationEvents.thread(client, thread, contract, caller);
      if (firstPost) {
        await crepo.insertPost(client, firstPost);
        await coordinationEvents.post(client, firstPost, contract, caller);
      }
    });
    return { thread, firstPost };
  }

  getThread(threadId: string, caller: Caller): Promise<Thread> {
    return this.visibleThread(threadId, caller);
  }

  async listThreads(req: ThreadQuery, caller: Caller): Promise<Page<Thread>> {
    const q = pageQuery(req.page);
    const tag = req.tag === undefined || req.tag === '' ? undefined : v.tags([req.tag], 'tag')[0];
    const viewer = isOperator(caller) ? undefined : actingAgent(caller);
    const page = await crepo.listThreads(
      this.ctx.pool,
      { tag, createdBy: req.createdBy || undefined, contractId: req.contractId || undefined, viewer },
      q,
    );
    return page;
  }

  async createPost(req: NewPost, caller: Caller): Promise<Post> {
    const author = resolveParty(caller, 'author', req.author);
    const body = postBody(req.body);
    const files = attachments(req.attachments);
    const found = await crepo.getThread(this.ctx.pool, req.threadId);
    if (!found) throw threadNotFound(req.threadId);
    let contract: Contract | null = null;
    if (found.contractId !== null) {
      contract = await contractsRepo.getContract(this.ctx.pool, found.contractId);
      if (!contract || !mayUse(caller, author, contract)) throw notAParty(found.contractId);
    }
    await this.ctx.agents.active(author);
    const post = await this.tx(async (client) => {
      const t = await crepo.lockThread(client, found.threadId);
      if (!t) throw threadNotFound(found.threadId);
      const now = this.ctx.clock();
      const p: Post = { postId: newId('pst'), threadId: t.threadId, author, body, attachments: files, createdAt: now };
      await crepo.insertPost(client, p);
      await crepo.recordPost(client, t.threadId, now);
      await coordinationEvents.post(client, p, contract, caller);
      return p;
    });
    return post;
  }

  async listPosts(req: PostQuery, caller: Caller): Promise<Page<Post>> {
    const q = pageQuery(req.page);
    const attachment = attachmentFilter(req.attachment);
    await this.visibleThread(req.threadId, caller);
    const page = await crepo.listPosts(this.ctx.pool, req.threadId, { author: req.author || undefined, attachment }, q);
    return page;
  }
}
