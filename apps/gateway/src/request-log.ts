import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { wasDeliberateRefusal } from './deliberate-refusal';

// One log line per request, written when the response is done: method, url, status, ms and the
// request id (bound on request.log). Fastify's own "incoming request" / "request completed" pair
// and its per-error lines are switched off; 5xx causes are logged once by the error handler.
export class OneLinePerRequest extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(): void {
    // nothing: the single line is written on completion
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if ((error || reply.statusCode >= 500) && !wasDeliberateRefusal(request)) request.log.warn(line, 'request');
    else request.log.info(line, 'request');
  }

  override defaultErrorLog(): void {
    // nothing: the app's error handler logs 5xx causes itself
  }

  override routeNotFound(): void {
    // nothing: a 404 is an ordinary completed request
  }
}
