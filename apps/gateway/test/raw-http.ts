import { connect } from 'node:net';

// Raw HTTP/1.1 over a socket, for what inject() never goes through (the socket's close, resets).

export interface Outcome {
  answer: string;
  /** The server's FIN reached the client. */
  ended: boolean;
  error?: string;
}

/**
 * POSTs `size` bytes of JSON body over a raw socket, starting a moment after the headers (so the
 * server may answer first) and going on as fast as the socket takes them, whatever the server says.
 */
export function postBody(port: number, path: string, size: number, opts: { allowHalfOpen?: boolean; headers?: Record<string, string> } = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: opts.allowHalfOpen ?? false });
    const out: Outcome = { answer: '', ended: false };
    socket.on('data', (chunk) => (out.answer += chunk.toString('latin1')));
    socket.on('end', () => (out.ended = true));
    socket.on('error', (err: NodeJS.ErrnoException) => (out.error ??= err.code));
    socket.on('close', () => resolve(out));
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
  });
}
