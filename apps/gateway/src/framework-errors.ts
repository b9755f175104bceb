import { uuidv7 } from '@exchange/platform';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemBody, type ProblemInit } from './plugins/app/problem';

// The answers Fastify and Node's HTTP parser make before any route or hook runs (a URL that is
// not valid percent-encoding, a path parameter over maxParamLength, headers too large, a request
// line Node cannot parse) are problem+json like every other error (DESIGN §3).

/** FST_ERR_BAD_URL (400), FST_ERR_MAX_PARAM_LENGTH (414), FST_ERR_ASYNC_CONSTRAINT (500). */
export function frameworkErrorProblem(error: FastifyError): ProblemInit {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return { status: 400, code: 'bad_url', detail: 'the URL is not valid percent-encoding' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, code: 'uri_too_long', detail: 'a path segment is longer than the gateway accepts' };
    default:
      return { status: 500, code: 'internal', detail: 'internal error' };
  }
}

/** Fastify `frameworkErrors`: hooks have not run, so the problem is written here in full. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const init = frameworkErrorProblem(error);
  if (init.status >= 500) request.log.error({ err: error }, 'framework error');
  void reply
    .code(init.status)
    .header('x-request-id', request.id)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problemBody(init, request.id)));
}

/** The raw HTTP response for an error Node's parser raised (`clientError`), or null to just close. */
export function clientErrorResponse(err: NodeJS.ErrnoException): string | null {
  if (err.code === 'ECONNRESET') return null;
  let init: ProblemInit;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    init = { status: 431, code: 'headers_too_large', detail: 'the request line and headers are larger than the gateway accepts' };
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    init = { status: 408, code: 'request_timeout', detail: 'the request was not received in time' };
  } else {
    init = { status: 400, code: 'bad_request', detail: 'the request is not valid HTTP/1.1' };
  }
  const requestId = `req_${uuidv7()}`;
  const body = JSON.stringify(problemBody(init, requestId));
  const reason = init.status === 431 ? 'Request Header Fields Too Large' : init.status === 408 ? 'Request Timeout' : 'Bad Request';
  return (
    `HTTP/1.1 ${init.status} ${reason}\r\n` +
    `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Fastify `clientErrorHandler`. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (socket.destroyed) return;
  const response = clientErrorResponse(err);
  if (response !== null && socket.writable) socket.write(response);
  socket.destroy(err);
}
