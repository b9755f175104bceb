import { unary, type CallContext, type Logger } from '@exchange/platform';
import type { marketV1Coordination } from '@exchange/proto';
import type { CoordinationService } from '../coordination/coordination.service';
import type { Caller } from '../domain/caller';

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, agentId: ctx.agentId, traceId: ctx.traceId });

/** CoordinationService: proto in, proto out; the rules live in the coordination service. */
export function coordinationHandlers(s: CoordinationService, logger: Logger): marketV1Coordination.CoordinationServiceServer {
  return {
    createThread: unary(logger, 'CreateThread', (req: marketV1Coordination.CreateThreadRequest, ctx) => s.createThread(req, caller(ctx))),
    getThread: unary(logger, 'GetThread', (req: marketV1Coordination.GetThreadRequest, ctx) => s.getThread(req, caller(ctx))),
    listThreads: unary(logger, 'ListThreads', (req: marketV1Coordination.ListThreadsRequest, ctx) => s.listThreads(req, caller(ctx))),
    createPost: unary(logger, 'CreatePost', (req: marketV1Coordination.CreatePostRequest, ctx) => s.createPost(req, caller(ctx))),
    listPosts: unary(logger, 'ListPosts', (req: marketV1Coordination.ListPostsRequest, ctx) => s.listPosts(req, caller(ctx))),
  };
}
