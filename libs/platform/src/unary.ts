import { status, type handleUnaryCall, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { callContextFromMetadata, type CallContext } from './call-context';
import { domainErrorStatus, internalErrorStatus } from './error-trailer';
import { DomainError } from './errors';
import type { Logger } from './logger';

/**
 * Adapts an async handler to grpc-js. One log line per call (method, code, duration_ms,
 * request_id); a DomainError becomes its status plus trailers `x-error-code`/`x-error-details-bin`
 * (and `x-idempotent-replayed` for a replayed stored failure);
 * anything else becomes INTERNAL with a generic message, and the stack goes to the log only.
 * Nothing the handler returns or throws escapes as an unhandled rejection: if grpc-js refuses to
 * send an answer (e.g. a response field it cannot encode), the caller gets INTERNAL instead.
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
    const answer = (err: Parameters<sendUnaryData<Res>>[0], response: Res | null): boolean => {
      try {
        callback(err, response);
        return true;
      } catch (sendErr) {
        logger.error({ method, request_id: ctx.requestId, err: sendErr }, 'rpc answer could not be sent');
        try {
          callback(internalErrorStatus(), null);
        } catch {
          // The call is gone (cancelled or already answered): nothing left to tell the client.
        }
        return false;
      }
    };
    pending
      .then(
        (response) => {
          if (!answer(null, response)) return;
          if (logger.isLevelEnabled(level)) {
            logger[level]({ method, code: deliveredCode(call, status.OK), duration_ms: elapsed(started), request_id: ctx.requestId }, 'rpc');
          }
        },
        (err: unknown) => {
          if (err instanceof DomainError) {
            if (!answer(domainErrorStatus(err), null)) return;
            if (logger.isLevelEnabled(level)) {
              logger[level](
                { method, code: deliveredCode(call, err.grpcCode), duration_ms: elapsed(started), request_id: ctx.requestId, error_code: err.code },
                'rpc',
              );
            }
            return;
          }
          answer(internalErrorStatus(), null);
          logger.error(
            { method, code: status.INTERNAL, duration_ms: elapsed(started), request_id: ctx.requestId, err },
            'rpc failed',
          );
        },
      )
      .catch((err: unknown) => logger.error({ method, request_id: ctx.requestId, err }, 'rpc adapter failed'));
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
