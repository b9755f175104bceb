import Fastify, { type FastifyInstance } from 'fastify';
import { connect, type Socket, type AddressInfo } from 'node:net';
import { postBody, rawConnection, sendRaw } from '../test/raw-http';
import { dropOnEndedConnection, lingerIfBodyUnread } from './lingering-close';

// A real Fastify on a real socket: the defect lives between Fastify's `Connection: close`, Node's
// close after the answer and the kernel's reset, none of which inject() goes through.

const LIMIT = 1024 * 1024;

interface Running {
  app: FastifyInstance;
  port: number;
  /** The server's side of each connection, and when it closed. */
  sockets: Array<{ socket: Socket; closed: Promise<void> }>;
  /** Requests that reached the /count handler. */
  counted: number;
}

/** Fastify wired as the gateway wires it: the drop hook first, the linger armed by the error handler. */
async function server(lingerMs?: number): Promise<Running> {
  const app = Fastify({ bodyLimit: LIMIT });
  const running = { app, port: 0, sockets: [], counted: 0 } as Running;
  app.server.on('connection', (socket: Socket) => running.sockets.push({ socket, closed: new Promise((resolve) => socket.once('close', () => resolve())) }));
  app.addHook('onRequest', dropOnEndedConnection);
  app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    lingerIfBodyUnread(request.raw, lingerMs);
    return reply.code(error.statusCode ?? 500).send({ status: error.statusCode });
  });
  app.post('/x', async () => ({ ok: true }));
  app.post('/count', async () => ({ counted: ++running.counted }));
  // Refused before the body is read, the connection kept alive (as the gateway's auth does).
  app.post('/early', { onRequest: async () => Promise.reject(Object.assign(new Error('no'), { statusCode: 401 })) }, async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  running.port = (app.server.address() as AddressInfo).port;
  return running;
}

describe('lingering close after a refused body', () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.app.close();
    running = undefined;
  });

  it('should deliver every 413 to a client still sending the body, then close', async () => {
    running = await server();
    const outcomes = [];
    for (let i = 0; i < 30; i++) outcomes.push(await postBody(running.port, '/x', 3_000_000));
    const answers = outcomes.map((o) => o.answer.split('\r\n', 1)[0]);
    expect(answers).toEqual(Array(30).fill('HTTP/1.1 413 Payload Too Large'));
    expect(outcomes.every((o) => o.answer.includes('connection: close') && o.ended)).toBe(true);
  });

  it('should close at the bound a client that never stops sending, the answer already read', async () => {
    // Long enough for the client to read its answer before the reset even when CI stalls the loop.
    running = await server(1_000);
    const out = await postBody(running.port, '/x', 4_000_000_000, { allowHalfOpen: true });
    expect(out.answer.split('\r\n', 1)[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(out.ended).toBe(true);
    // The server destroyed the socket with the body still coming: the client's next writes fail.
    expect(['ECONNRESET', 'EPIPE']).toContain(out.error);
  });

  it('should close at once when the body was all read (unparsable JSON): nothing to linger for', async () => {
    running = await server(60_000);
    // Half-open: the client does not end its side when the server's FIN comes, so only the server's
    // own close ends the connection.
    const { socket, outcome } = rawConnection(running.port, { allowHalfOpen: true });
    socket.write('POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{nope');
    await new Promise((resolve) => socket.once('end', resolve));
    // Closed long before the 60 s linger: jest's timeout would fail this otherwise.
    await running.sockets[0]!.closed;
    socket.destroy();
    const out = await outcome;
    expect(out.ended).toBe(true);
    expect(out.answer.split('\r\n', 1)[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(Object.hasOwn(running.sockets[0]!.socket, 'destroySoon')).toBe(false);
  });

  it('should not run requests pipelined behind a refused body: the connection is closing', async () => {
    running = await server();
    const body = Buffer.alloc(2 * LIMIT, 0x20);
    const next = 'POST /count HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';
    const head = `POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { answer } = await sendRaw(running.port, Buffer.concat([Buffer.from(head), body, Buffer.from(next.repeat(50))]), { end: true });
    await running.sockets[0]!.closed;
    expect(running.counted).toBe(0);
    expect(answer.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 413']);
  });

  it('should leave a kept-alive connection to Node: the body read and discarded, the next request answered, the socket disarmed', async () => {
    running = await server(60_000);
    const socket = connect(running.port, '127.0.0.1');
    let answer = '';
    const answered = (n: number) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if ((answer.match(/HTTP\/1\.1 /g) ?? []).length >= n && answer.endsWith('}')) resolve();
          else socket.once('data', check);
        };
        check();
      });
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.write(`POST /early HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 40000\r\n\r\n`);
    await answered(1);
    socket.write(Buffer.alloc(40_000, 0x20));
    socket.write('POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    await answered(2);
    socket.destroy();
    expect(answer.split('\r\n', 1)[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(answer).toContain('{"ok":true}');
    expect(running.sockets).toHaveLength(1);
    expect(Object.hasOwn(running.sockets[0]!.socket, 'destroySoon')).toBe(false);
  });
});
