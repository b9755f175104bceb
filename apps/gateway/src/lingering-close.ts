import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';

// Lingering close (RFC 9112 §9.6). Fastify answers a body it refuses while it is still arriving
// (413: over the limit by Content-Length, or a chunked body passing it) with `Connection: close`.
// Node then closes the socket as soon as the answer is written; the bytes still arriving hit a
// closed socket, the kernel answers them with a reset, and the client can lose the answer it had
// not read yet: it sees EPIPE or ECONNRESET instead of its 413 (the fuzzer found it with a 3 MB
// body; a bare Fastify lost 13 to 18 of 50 such answers here). So the gateway half-closes instead
// (the client reads the answer and its end), lets Node read and discard what still comes, and
// closes once the body is in, the client closes, or a bound is reached.

/** Longest wait, after the answer, for the rest of the body: a client still sending then gets the reset. */
export const LINGER_MS = 2_000;

const protoDestroySoon = Socket.prototype.destroySoon;

/**
 * Arms a lingering close on the request's socket when its body is not all in: if Node then closes
 * the connection after the answer (Connection: close), it lingers instead. No effect on a request
 * already complete, nor on a connection kept alive (Node reads the rest of the body itself then,
 * within the server's requestTimeout).
 */
export function lingerIfBodyUnread(request: IncomingMessage, lingerMs: number = LINGER_MS): void {
  const socket = request.socket as Socket | null;
  if (request.complete || socket === null || socket.destroyed || Object.hasOwn(socket, 'destroySoon')) return;
  // destroySoon is what Node's HTTP server calls to close after the last answer; an own property
  // shadows the prototype's for this socket only, until first use or the body's end.
  const disarm = (): void => {
    if (socket.destroySoon === lingeringClose) delete (socket as Partial<Pick<Socket, 'destroySoon'>>).destroySoon;
  };
  function lingeringClose(this: Socket): void {
    disarm();
    request.off('end', disarm);
    if (request.complete) return protoDestroySoon.call(this);
    linger(this, request, lingerMs);
  }
  socket.destroySoon = lingeringClose;
  request.once('end', disarm);
}

function linger(socket: Socket, request: IncomingMessage, lingerMs: number): void {
  // Node's parser goes on reading the socket and discarding the body (the request was dumped):
  // the request's end means nothing unread is left, so closing then sends a plain FIN, no reset.
  const done = (): void => {
    request.off('end', done);
    socket.off('end', done);
    protoDestroySoon.call(socket);
  };
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  request.once('end', done);
  socket.once('end', done);
  socket.end();
}

/**
 * Fastify `onRequest` hook, the first of all: a request that arrives on a connection whose sending
 * side is closed (requests pipelined behind a refused body, parsed while the connection lingers)
 * is dropped unprocessed: its answer could never be sent, and after `Connection: close` a server
 * must not process further requests (RFC 9112 §9.6).
 */
export function dropOnEndedConnection(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const socket = request.raw.socket as Socket | null;
  if (socket === null || !socket.writableEnded) return done();
  // Hijacked: no later hook, parser or handler runs, nothing is written. The socket is left to the
  // close already under way (destroying it here could reset the answer before the client reads it).
  reply.hijack();
}
