import { spawn, type ChildProcess } from 'node:child_process';
import { connect as tcpConnect } from 'node:net';
import { waitFor } from './wait-for';

/** A private nats-server (JetStream, file store) this test owns, to stop and restart by PID. */
export interface NatsServerProcess {
  url: string;
  pid: number;
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

export async function startNatsServer(port: number, storeDir: string): Promise<NatsServerProcess> {
  const binary = process.env['NATS_SERVER_BIN'] ?? 'nats-server';
  const child: ChildProcess = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  child.once('error', () => (exited = true));
  await waitFor(`nats-server on port ${port}`, async () => {
    if (exited) throw new Error(`nats-server (${binary}) exited before listening on ${port}`);
    return portOpen(port);
  });
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
