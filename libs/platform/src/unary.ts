import { Metadata, status, type handleUnaryCall, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { callContextFromMetadata, type CallContext } from './call-context';
import { DomainError, ERROR_CODE_METADATA, ERROR_DETAILS_METADATA, ERROR_REPLAYED_METADATA } from './errors';
import type { Logger } from './logger';

const INTERNAL_MESSAGE = 'internal error';

/**
 * Adapts an async handler to grpc-js. One log line per call (method, code, duration_ms,
 * request_id); a DomainError becomes its status plus trailers `x-error-code`/`x-error-details`
 * (and `x-idempotent-replayed` for a replayed stored failure);
 * anything else becomes INTERNAL with a generic message, and the stack goes to the log only.
 */
export function unary<Req, Res>(
  logger: Logger,
  method: string,
  fn: (req: Req, ctx: CallContext) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  const level = method.toLowerCase().includes('health') ? 'debug' : 'info';
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    const started = performance.now();
    const ctx = callContextFromMetadata(call.metadata, logger);
    let pending: Promise<Res>;
    try {
      pending = fn(call.request, ctx);
    } catch (err) {
      pending = Promise.reject(err);
    }
    pending.then(
      (response) => {
        callback(null, response);
        if (logger.isLevelEnabled(level)) {
          logger[level]({ method, code: deliveredCode(call, status.OK), duration_ms: elapsed(started), request_id: ctx.requestId }, 'rpc');
        }
      },
      (err: unknown) => {
        if (err instanceof DomainError) {
          const trailer = new Metadata();
          trailer.set(ERROR_CODE_METADATA, err.code);
          if (err.details !== undefined) trailer.set(ERROR_DETAILS_METADATA, JSON.stringify(err.details));
          if (err.replayed) trailer.set(ERROR_REPLAYED_METADATA, 'true');
          callback({ code: err.grpcCode, details: err.message, metadata: trailer }, null);
          if (logger.isLevelEnabled(level)) {
            logger[level](
              { method, code: deliveredCode(call, err.grpcCode), duration_ms: elapsed(started), request_id: ctx.requestId, error_code: err.code },
              'rpc',
            );
          }
          return;
        }
        const trailer = new Metadata();
        trailer.set(ERROR_CODE_METADATA, 'internal');
        callback({ code: status.INTERNAL, details: INTERNAL_MESSAGE, metadata: trailer }, null);
        logger.error(
          { method, code: status.INTERNAL, duration_ms: elapsed(started), request_id: ctx.requestId, err },
          'rpc failed',
        );
      },
    );
  };
}

// A call the client cancelled, or whose deadline passed (grpc-js already answered
// DEADLINE_EXCEEDED), never saw our status: log what the client actually got.
function deliveredCode(call: ServerUnaryCall<unknown, unknown>, code: status): status {
  if (call.cancelled) return status.CANCELLED;
  const deadline = call.getDeadline(); // Date, or ms since epoch (Infinity when none)
  const deadlineMs = typeof deadline === 'number' ? deadline : deadline.getTime();
  return deadlineMs <= Date.now() ? status.DEADLINE_EXCEEDED : code;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
