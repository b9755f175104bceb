import { errors, unary, type Logger } from '@exchange/platform';
import type { handleUnaryCall } from '@grpc/grpc-js';

// Scaffolding while the areas are written: an RPC that answers "not implemented yet".
// Removed when the last area lands.
export function pendingUnary<Req, Res>(logger: Logger, method: string): handleUnaryCall<Req, Res> {
  return unary(logger, method, async (): Promise<Res> => {
    throw errors.failedPrecondition('unimplemented', `${method} is not implemented yet`);
  });
}
