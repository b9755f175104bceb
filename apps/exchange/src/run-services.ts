import { findStablePort } from '@exchange/db';
import { createLogger } from '@exchange/platform';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startBanner } from './banner';
import { readExchangeConfig } from './config';
import { openDatabases } from './databases';
import { resolveOperatorToken } from './operator-token';
import { artifactStoreEnv } from './artifact-store';
import { localUrl, merchantDirectory, orderWebhookUrl, readMerchantConfig, runsSandboxMerchant, sandboxMerchantEnv, sandboxMerchantUrl } from './sandbox-merchant';
import { SERVICES, serviceGrpcUrls } from './services';
import { loadOrCreateSigningKey } from './signing-key';

// `npm run start:services`: distributed mode on one machine — every service and the gateway as
// its own OS process, against a real PostgreSQL (DATABASE_URL, one database per service) and
// NATS JetStream (NATS_URL). The same processes run in Kubernetes, one Deployment each.
const repoRoot = resolve(__dirname, '../../..');
const tsxCli = require.resolve('tsx/cli');

// SERVICES_FROM_DIST=1: each process runs its prebuilt bundle (dist/apps/<app>/main.js, `nx build`) instead of
// tsx transpiling the sources on every start — CI's end-to-end step boots dozens of stacks right after its build.
// Opt-in only, so that a stale local dist never runs in place of the sources.
const fromDist = process.env.SERVICES_FROM_DIST === '1';
const bundlePath = (app: string) => join(repoRoot, 'dist', 'apps', app, 'main.js');
// SERVICES_CPU_PROF_DIR=<dir> (with SERVICES_FROM_DIST=1; under tsx only its launcher would be
// profiled): each process writes a V8 CPU profile to <dir>/<app>/ when it exits (tools/bench).
const profDir = fromDist ? process.env.SERVICES_CPU_PROF_DIR : undefined;
const profArgs = (app: string) => (profDir ? ['--cpu-prof', `--cpu-prof-dir=${join(resolve(profDir), app)}`] : []);
const launchArgs = (app: string) => (fromDist ? [...profArgs(app), bundlePath(app)] : [tsxCli, `apps/${app}/src/main.ts`]);

/** Every bundle is checked before any process starts, so a missing one never leaves half a stack running. */
function checkBundles(apps: string[]) {
  const missing = fromDist ? apps.filter((app) => !existsSync(bundlePath(app))) : [];
  if (missing.length > 0) {
    throw new Error(`SERVICES_FROM_DIST=1 but dist/apps/{${missing.join(',')}}/main.js is missing: run \`npx nx run-many -t build\` first`);
  }
}

async function main() {
  const config = readExchangeConfig();
  const logger = createLogger({ name: 'run-services', level: config.LOG_LEVEL });
  if (!config.DATABASE_URL || !config.NATS_URL) {
    throw new Error('distributed mode needs DATABASE_URL (a PostgreSQL server) and NATS_URL (NATS with JetStream)');
  }
  checkBundles([...SERVICES.map((svc) => svc.name), 'gateway', ...(runsSandboxMerchant(config.EXCHANGE_ENV) ? ['sandbox-merchant'] : [])]);
  const dataDir = resolve(config.EXCHANGE_DATA_DIR);
  const signingKey = await loadOrCreateSigningKey(dataDir, config.EXCHANGE_SIGNING_KEY);
  const { token, generated } = resolveOperatorToken(config.OPERATOR_TOKEN);
  const databases = await openDatabases({
    databaseUrl: config.DATABASE_URL,
    prefix: config.EXCHANGE_DB_PREFIX,
    dataDir,
    embeddedPort: 0,
    logger,
  });

  const children: Array<{ name: string; proc: ChildProcess }> = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // Gateway first (stop taking requests), then the services.
    for (const { proc } of [...children].reverse()) {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await new Promise<void>((res) => (proc.exitCode !== null ? res() : proc.once('exit', () => res())));
    }
    process.exit(code);
  };

  const launch = (name: string, env: Record<string, string | undefined>) => {
    const proc = spawn(process.execPath, launchArgs(name), {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    proc.once('exit', (code, signal) => {
      if (!stopping) {
        logger.error({ service: name, code, signal }, 'a service exited unexpectedly; stopping the others');
        void stopAll(1);
      }
    });
    children.push({ name, proc });
  };

  const url = localUrl(config.HOST, config.PORT);
  // Sandbox only: the built-in UCP business as its own process, first, so that it answers by the
  // time commerce looks it up; every service is given MERCHANT_DIRECTORY (commerce reads it).
  const merchantEnv = runsSandboxMerchant(config.EXCHANGE_ENV)
    ? sandboxMerchantEnv(process.env, { port: await findStablePort(), webhookUrl: orderWebhookUrl(url), logLevel: config.LOG_LEVEL })
    : undefined;
  const merchantUrl = merchantEnv && sandboxMerchantUrl(merchantEnv);
  if (merchantEnv) {
    readMerchantConfig(merchantEnv); // a bad SANDBOX_MERCHANT_* fails here, named, before anything starts
    launch('sandbox-merchant', merchantEnv);
  }
  const directoryEnv = merchantUrl ? { MERCHANT_DIRECTORY: merchantDirectory(merchantUrl) } : {};

  const basePort = Number(process.env.GRPC_BASE_PORT ?? 50051);
  const grpcUrls = serviceGrpcUrls(basePort);
  for (const [i, svc] of SERVICES.entries()) {
    // Every service gets every <SERVICE>_GRPC_URL (wallet-ledger calls identity); a service
    // reads only the ones its config declares.
    launch(svc.name, {
      ...grpcUrls,
      GRPC_PORT: String(basePort + i),
      GRPC_HOST: '127.0.0.1',
      DATABASE_URL: svc.database ? await databases.databaseFor(svc.name) : undefined,
      NATS_URL: config.NATS_URL,
      EXCHANGE_ENV: config.EXCHANGE_ENV,
      EXCHANGE_SIGNING_KEY: signingKey,
      LOG_LEVEL: config.LOG_LEVEL,
      // Read by registry only: artifact bytes under the data dir unless configured.
      ...artifactStoreEnv(process.env, dataDir),
      ...directoryEnv,
      // Read by commerce only: its UCP profile and order-webhook URLs are under the gateway.
      EXCHANGE_PUBLIC_URL: process.env.EXCHANGE_PUBLIC_URL ?? url,
    });
  }
  launch('gateway', {
    ...grpcUrls,
    PORT: String(config.PORT),
    HOST: config.HOST,
    OPERATOR_TOKEN: token,
    EXCHANGE_SIGNING_KEY: signingKey,
    EXCHANGE_ENV: config.EXCHANGE_ENV,
    REDIS_URL: config.REDIS_URL,
    // Identity's live agent events keep the gateway's agent cache current.
    NATS_URL: config.NATS_URL,
    LOG_LEVEL: config.LOG_LEVEL,
  });
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  const deadline = Date.now() + 60_000;
  for (const healthUrl of [`${url}/health`, ...(merchantUrl ? [`${merchantUrl}/health`] : [])]) {
    for (;;) {
      try {
        if ((await fetch(healthUrl)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        logger.error({ healthUrl }, 'the exchange did not become healthy within 60 s');
        return stopAll(1);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  if (merchantUrl) logger.info({ url: merchantUrl, merchantDirectory: directoryEnv.MERCHANT_DIRECTORY }, 'sandbox merchant listening');
  process.stdout.write(
    startBanner({
      url,
      environment: config.EXCHANGE_ENV,
      database: 'PostgreSQL at DATABASE_URL, one database per service',
      events: 'NATS JetStream',
      operatorToken: token,
      tokenGenerated: generated,
      sandboxMerchantUrl: merchantUrl,
    }),
  );
}

main().catch((err) => {
  process.stderr.write(`start:services failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
