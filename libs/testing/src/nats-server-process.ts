/**
 * A private nats-server (JetStream, file store) a test owns, to take away and bring back on the
 * same port and store dir (NATS outage tests). `NATS_SERVER_BIN` overrides the binary.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect as tcpConnect } from 'node:net';

export interface NatsServerProcess {
  url: string;
  pid: number;
  /** SIGTERM, then waits for the process to exit. */
  stop(): Promise<void>;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

export async function startNatsServer(port: number, storeDir: string, timeoutMs = 20_000): Promise<NatsServerProcess> {
  const binary = process.env['NATS_SERVER_BIN'] ?? 'nats-server';
  const child: ChildProcess = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  child.once('error', () => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (!(await portOpen(port))) {
    if (exited) throw new Error(`nats-server (${binary}) exited before listening on ${port}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: async () => {
      if (exited) return;
      process.kill(child.pid as number, 'SIGTERM');
      await exit;
    },
  };
}
