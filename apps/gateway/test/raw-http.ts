import { connect, type Socket } from 'node:net';

// Raw HTTP/1.1 over a socket, for what inject() never goes through (the socket's close, resets).

export interface Outcome {
  answer: string;
  /** The server's FIN reached the client. */
  ended: boolean;
  error?: string;
}

/** A connection to 127.0.0.1:`port` recording what comes back; `outcome` settles when the socket closes. */
export function rawConnection(port: number, opts: { allowHalfOpen?: boolean } = {}): { socket: Socket; outcome: Promise<Outcome> } {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: opts.allowHalfOpen ?? false });
  const out: Outcome = { answer: '', ended: false };
  socket.on('data', (chunk) => (out.answer += chunk.toString('latin1')));
  socket.on('end', () => (out.ended = true));
  socket.on('error', (err: NodeJS.ErrnoException) => (out.error ??= err.code));
  return { socket, outcome: new Promise((resolve) => socket.on('close', () => resolve(out))) };
}

/** Sends `bytes` (and ends the client's side when `end`), then waits for the server to close. */
export function sendRaw(port: number, bytes: string | Buffer, opts: { end?: boolean } = {}): Promise<Outcome> {
  const { socket, outcome } = rawConnection(port);
  if (opts.end) socket.end(bytes);
  else socket.write(bytes);
  return outcome;
}

/**
 * POSTs `size` bytes of JSON body over a raw socket, starting a moment after the headers (so the
 * server may answer first) and going on as fast as the socket takes them, whatever the server says.
 */
export function postBody(port: number, path: string, size: number, opts: { allowHalfOpen?: boolean; headers?: Record<string, string> } = {}): Promise<Outcome> {
  const { socket, outcome } = rawConnection(port, opts);
  const headers = { host: 'a', 'content-type': 'application/json', ...opts.headers, 'content-length': String(size) };
  socket.write(`POST ${path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = (): void => {
    while (sent < size && !socket.destroyed) {
      const n = Math.min(chunk.length, size - sent);
      sent += n;
      if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void socket.once('drain', pump);
    }
    if (sent >= size && !socket.destroyed) socket.end();
  };
  setTimeout(pump, 1);
  return outcome;
}
