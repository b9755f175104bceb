import { status, type handleServerStreamingCall, type ServerErrorResponse, type ServerWritableStream } from '@grpc/grpc-js';
import { callContextFromMetadata, type CallContext } from '../call-context';
import { domainErrorStatus, internalErrorStatus } from '../error-trailer';
import { DomainError } from '../errors';
import type { Logger } from '../logger';

/**
 * A failure as grpc-js wants it for a streaming call: a DomainError keeps its status and
 * trailers (the same as platform's `unary`), anything else becomes INTERNAL with the cause in the
 * log only.
 */
export function streamErrorStatus(err: unknown, logger: Logger, method: string): Partial<ServerErrorResponse> {
  if (err instanceof DomainError) {
    logger.info({ method, code: err.grpcCode, error_code: err.code }, 'rpc');
    return domainErrorStatus(err);
  }
  logger.error({ method, err }, 'rpc failed');
  return internalErrorStatus();
}

/**
 * Writes one message; when grpc-js's buffer is full, waits until the client has read on (or gone
 * away: a cancelled call never drains). Resolves false once the call is cancelled, so a producer
 * stops instead of reading more data nobody will take.
 */
export async function writeWithBackpressure<Res>(call: ServerWritableStream<unknown, Res>, message: Res): Promise<boolean> {
  if (call.cancelled) return false;
  if (call.write(message)) return true;
  await new Promise<void>((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      resolve();
    };
    call.once('drain', done);
    call.once('cancelled', done);
  });
  return !call.cancelled;
}

/**
 * Adapts an async producer to a grpc-js server-streaming handler: `run` writes (through
 * `writeWithBackpressure`) and returns; the stream then ends with OK, or with the error's status
 * (DomainError → its code and trailers, else INTERNAL). One log line per call, as `unary` logs.
 */
export function serverStream<Req, Res>(
  logger: Logger,
  method: string,
  run: (call: ServerWritableStream<Req, Res>, ctx: CallContext) => Promise<void>,
): handleServerStreamingCall<Req, Res> {
  return (call) => {
    const started = performance.now();
    const ctx = callContextFromMetadata(call.metadata, logger);
    let pending: Promise<void>;
    try {
      pending = run(call, ctx);
    } catch (err) {
      pending = Promise.reject(err);
    }
    pending
      .then(
        () => {
          const code = call.cancelled ? status.CANCELLED : status.OK;
          logger.info({ method, code, duration_ms: Math.round(performance.now() - started), request_id: ctx.requestId }, 'rpc');
          if (!call.cancelled) call.end();
        },
        (err: unknown) => {
          if (call.cancelled) {
            logger.info({ method, code: status.CANCELLED, request_id: ctx.requestId }, 'rpc');
            return;
          }
          call.emit('error', streamErrorStatus(err, logger, method));
        },
      )
      .catch((err: unknown) => logger.error({ method, request_id: ctx.requestId, err }, 'rpc adapter failed'));
  };
}
