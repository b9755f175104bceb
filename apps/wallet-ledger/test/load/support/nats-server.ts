import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { spawn, type ChildProcess } from 'node:child_process';

/** A nats-server with JetStream that this test started (and alone stops), on a fixed port and store. */
export interface NatsServerProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startNatsServer(binary: string, port: number, storeDir: string): Promise<NatsServerProcess> {
  const child: ChildProcess = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const url = `nats://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}:\n${tail}`);
    try {
      const nc = await connect({ servers: url, reconnect: false, timeout: 1_000 });
      try {
        await (await jetstreamManager(nc)).getAccountInfo();
      } finally {
        await nc.close();
      }
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`nats-server on ${port} not ready: ${(err as Error).message}\n${tail}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      // SIGTERM: a clean shutdown that flushes the JetStream store, like a restart in production.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
