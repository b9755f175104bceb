import { unary } from '@exchange/platform';
import { marketV1Coordination } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import { toProtoPost, toProtoThread } from './coordination.mapper';
import type { CoordinationService } from './coordination.service';

const C = marketV1Coordination;

/** CoordinationService: proto in, proto out (the stored idempotent answer is the proto); the rules live in the coordination service. */
export function coordinationHandlers(s: CoordinationService, deps: HandlerDeps): marketV1Coordination.CoordinationServiceServer {
  const logger = deps.logger;
  return {
    createThread: unary(logger, 'CreateThread', (req: marketV1Coordination.CreateThreadRequest, call) =>
      idempotent(deps, caller(call), 'CreateThread', req, C.CreateThreadRequest.toJSON(req), C.CreateThreadResponse, async () => {
        const { thread, firstPost } = await s.createThread(req, caller(call));
        return { thread: toProtoThread(thread), firstPost: firstPost ? toProtoPost(firstPost) : undefined, idempotentReplayed: false };
      }),
    ),
    getThread: unary(logger, 'GetThread', async (req: marketV1Coordination.GetThreadRequest, call) => ({
      thread: toProtoThread(await s.getThread(req.threadId, caller(call))),
    })),
    listThreads: unary(logger, 'ListThreads', async (req: marketV1Coordination.ListThreadsRequest, call) => {
      const page = await s.listThreads(req, caller(call));
      return { threads: page.data.map(toProtoThread), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    createPost: unary(logger, 'CreatePost', (req: marketV1Coordination.CreatePostRequest, call) =>
      idempotent(deps, caller(call), 'CreatePost', req, C.CreatePostRequest.toJSON(req), C.CreatePostResponse, async () => ({
        post: toProtoPost(await s.createPost(req, caller(call))),
        idempotentReplayed: false,
      })),
    ),
    listPosts: unary(logger, 'ListPosts', async (req: marketV1Coordination.ListPostsRequest, call) => {
      const page = await s.listPosts(req, caller(call));
      return { posts: page.data.map(toProtoPost), page: { nextCursor: page.nextCursor ?? '' } };
    }),
  };
}
