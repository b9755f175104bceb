import { createServer, type Server } from 'node:net';
import { findFreePort, findFreePortRange, findStablePort } from './free-port';

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('findFreePortRange', () => {
  it('returns a base below the ephemeral range whose consecutive ports can all be bound', async () => {
    const base = await findFreePortRange(4);
    expect(base).toBeGreaterThanOrEqual(20_000);
    expect(base + 3).toBeLessThan(32_768);
    const servers = await Promise.all([0, 1, 2, 3].map((i) => listen(base + i)));
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });
});

describe('findFreePort', () => {
  it('returns a port that can be bound', async () => {
    const server = await listen(await findFreePort());
    await new Promise((r) => server.close(r));
  });
});

describe('findStablePort', () => {
  it('returns a bindable port outside the ephemeral range (an outgoing connection cannot take it meanwhile)', async () => {
    const port = await findStablePort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_768);
    const server = await listen(port);
    await new Promise((r) => server.close(r));
  });
});
