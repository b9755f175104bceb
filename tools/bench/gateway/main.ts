import { findFreePort, findFreePortRange } from '@exchange/db';
import autocannon from 'autocannon';
import pg from 'pg';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Gateway benchmark (issue 2 §16). In one run:
//   (a) bare Fastify hello world, (b) Fastify → one unary gRPC call to a separate process,
//   then GET /health, GET /v1/agents/{id} and POST /v1/agents through the real gateway.
// Prints req/s, p50/p99 and each as a ratio to (a) and (b). Settings: BENCH_SECONDS (10),
// BENCH_CONNECTIONS (50). With DATABASE_URL and NATS_URL set the exchange runs distributed (one
// process per service, like (b) where the gRPC server is its own process); otherwise all-in-one
// on embedded PostgreSQL. BENCH_MODE=all-in-one|distributed overrides.
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const repoRoot = resolve(__dirname, '../../..');
const tsxCli = require.resolve('tsx/cli');
const children: ChildProcess[] = [];

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}


function forkTs(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(__dirname, script), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((res, rej) => {
    child.once('message', () => res(child));
    child.once('exit', (code) => rej(new Error(`${script} exited with ${code}`)));
  });
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((res) => child.once('exit', res));
  child.kill('SIGTERM');
  await exited;
}

async function load(name: string, opts: autocannon.Options): Promise<Figures> {
  // Warm-up so JIT and connection pools settle before measuring.
  await autocannon({ ...opts, connections, duration: 2 });
  const r = await autocannon({ ...opts, connections, duration: seconds });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
function registrationBodies(count: number): string[] {
  const bodies: string[] = [];
  const run = randomBytes(3).toString('hex');
  for (let i = 0; i < count; i++) {
    const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, randomBytes(32)]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
    const pub = spki.subarray(spki.length - 32).toString('base64');
    const agentId = `bench-${run}:agent:a${i}`;
    const nonce = `n-${run}-${i}`;
    const proof = `{"agent_id":${JSON.stringify(agentId)},"primary_pubkey":${JSON.stringify(pub)},"proof_nonce":${JSON.stringify(nonce)}}`;
    const signature = sign(null, Buffer.from(proof), key).toString('base64');
    bodies.push(
      JSON.stringify({
        agent_id: agentId,
        primary_pubkey: pub,
        pubkey_set: [],
        identity_level: 'SANDBOX_UNVERIFIED',
        proof_nonce: nonce,
        proof_signature: signature,
      }),
    );
  }
  return bodies;
}

const distributed =
  (process.env.BENCH_MODE ?? (process.env.DATABASE_URL && process.env.NATS_URL ? 'distributed' : 'all-in-one')) === 'distributed';

async function startExchange(token: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await findFreePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-exchange-'));
  // Run as root, embedded PostgreSQL drops to the `postgres` user, which must reach the data dir.
  chmodSync(dataDir, 0o755);
  const dbPrefix = `bench_${randomBytes(3).toString('hex')}_`;
  const script = distributed ? 'apps/exchange/src/run-services.ts' : 'apps/exchange/src/main.ts';
  const child = spawn(process.execPath, [tsxCli, script], {
    cwd: repoRoot,
    env: {
      ...process.env,
      GRPC_BASE_PORT: String(await findFreePortRange(16)), // every service binds base + its index
      PORT: String(port),
      OPERATOR_TOKEN: token,
      EXCHANGE_DATA_DIR: dataDir,
      EXCHANGE_DB_PREFIX: dbPrefix,
      // The benchmark measures throughput, not the limiter: lift the operator limit.
      RATE_LIMIT_OPERATOR: '100000000',
      RATE_LIMIT_ANONYMOUS: '100000000',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exchange exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // starting
    }
    if (Date.now() > deadline) throw new Error('exchange not healthy within 90 s');
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
      if (process.env.DATABASE_URL) await dropDatabases(process.env.DATABASE_URL, dbPrefix);
    },
  };
}

/** The benchmark's own databases (one per service) go when it ends. */
async function dropDatabases(serverUrl: string, prefix: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(datname)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

function report(rows: Figures[]) {
  const [a, b] = rows;
  const pad = (s: string, n: number) => s.padEnd(n);
  const num = (n: number) => n.toFixed(0).padStart(8);
  console.log(`\nGateway benchmark: ${connections} connections, ${seconds} s per scenario (after a 2 s warm-up)`);
  console.log(`Exchange: ${distributed ? 'distributed (gateway and identity in separate processes, PostgreSQL at DATABASE_URL, NATS)' : 'all-in-one (one process, embedded PostgreSQL)'}\n`);
  console.log(`${pad('scenario', 36)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'vs (a)'.padStart(9)}${'vs (b)'.padStart(9)}  errors/non-2xx`);
  for (const r of rows) {
    console.log(
      `${pad(r.name, 36)}${num(r.rps)}${num(r.p50)}${num(r.p99)}${((100 * r.rps) / a.rps).toFixed(1).padStart(8)}%${((100 * r.rps) / b.rps).toFixed(1).padStart(8)}%  ${r.errors}/${r.non2xx}`,
    );
  }
  const get = rows.find((r) => r.name.startsWith('GET /v1/agents/'));
  if (get) {
    const ratio = get.rps / b.rps;
    console.log(
      `\nGoal GET /v1/agents/{id} >= 70% of (b) with p99 < 50 ms: ${(100 * ratio).toFixed(1)}% and p99 ${get.p99} ms -> ${
        ratio >= 0.7 && get.p99 < 50 ? 'met' : 'NOT met'
      }`,
    );
  }
}

async function main() {
  const rows: Figures[] = [];
  const helloPort = await findFreePort();
  const hello = await forkTs('hello-server.ts', { PORT: String(helloPort) });
  rows.push(await load('(a) Fastify hello world', { url: `http://127.0.0.1:${helloPort}/` }));
  await stopChild(hello);

  const grpcPort = await findFreePort();
  const echoPort = await findFreePort();
  const echo = await forkTs('echo-server.ts', { GRPC_PORT: String(grpcPort) });
  const echoGw = await forkTs('echo-gateway.ts', { GRPC_PORT: String(grpcPort), PORT: String(echoPort) });
  rows.push(await load('(b) Fastify -> 1 unary gRPC call', { url: `http://127.0.0.1:${echoPort}/` }));
  await stopChild(echoGw);
  await stopChild(echo);

  const token = `bench-${randomBytes(12).toString('hex')}`;
  const exchange = await startExchange(token);
  const auth = { authorization: `Bearer ${token}` };
  const bodies = registrationBodies(Number(process.env.BENCH_REGISTRATIONS ?? 40000));
  const first = await fetch(`${exchange.url}/v1/agents`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: bodies[0],
  });
  if (first.status !== 201) throw new Error(`could not register the benchmark agent: ${first.status} ${await first.text()}`);
  const agentId = (JSON.parse(bodies[0]) as { agent_id: string }).agent_id;

  rows.push(await load('GET /health', { url: `${exchange.url}/health` }));
  rows.push(await load(`GET /v1/agents/{id}`, { url: `${exchange.url}/v1/agents/${encodeURIComponent(agentId)}`, headers: auth }));
  let next = 1;
  rows.push(
    await load('POST /v1/agents', {
      url: `${exchange.url}/v1/agents`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      requests: [
        {
          // Each registration needs a fresh agent; if the run outlasts BENCH_REGISTRATIONS the
          // bodies repeat and show up as non-2xx (409) in the report.
          setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
        },
      ],
    }),
  );
  await exchange.stop();
  report(rows);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const c of children) await stopChild(c);
  });
