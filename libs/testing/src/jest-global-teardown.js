// Jest globalTeardown: stops the embedded PostgreSQL started by jest-global-setup.js and removes its data.
const fs = require('node:fs');

module.exports = async function globalTeardown() {
  const started = globalThis.__EXCHANGE_TEST_PG__;
  if (!started) return;
  globalThis.__EXCHANGE_TEST_PG__ = undefined;
  delete process.env.TEST_PG_EMBEDDED_URL;
  await started.server.stop();
  fs.rmSync(started.dataDir, { recursive: true, force: true });
};
