import { findFreePort } from '@exchange/db';
import { pathSegment } from '@exchange/sdk';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createAgents } from '../lib/agents';
import { exchangeClassifier } from '../lib/cpu';
import { benchTree, startExchange, type Mode } from '../lib/exchange';
import { runLoad, type Measured } from '../lib/load';
import { cpuLine, record, runContext } from '../lib/record';
import type { HttpScenario } from '../lib/scenario';
import { fmt, pct, table } from '../lib/table';

// Gateway benchmark (issue 20). One table, baselines measured in the same run:
//   (a) bare Fastify hello world, (b) Fastify → one unary gRPC call to a separate process,
// then per exchange mode (BENCH_MODE=distributed|all-in-one|both, default both):
//   GET /v1/agents/{id} (operator token), the same agent-signed, agent-signed GET /v1/wallets/{id}
//   (a fresh signature and nonce per request) and POST /v1/agents (a fresh key pair and proof per
//   request), each as a share of (b) beside its goal. Every load runs in its own process
//   (lib/loadgen.ts); CPU per process is sampled over each measured window.
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const modeSetting = process.env.BENCH_MODE ?? 'both';
const modes: Mode[] = modeSetting === 'both' ? ['distributed', 'all-in-one'] : [modeSetting as Mode];
// Only the exchange rows whose name contains this text (e.g. "wallets" while profiling one path).
const only = process.env.BENCH_ONLY ?? '';
if (!modes.every((m) => m === 'distributed' || m === 'all-in-one')) throw new Error(`BENCH_MODE=${modeSetting}: distributed, all-in-one or both`);

/** Goal per row name: share of (b), and p99 where it has one. */
const GOALS: Record<string, { share: number; p99?: number }> = {
  'GET /v1/agents/{id} (operator)': { share: 0.7, p99: 50 },
  'POST /v1/agents (fresh key + proof)': { share: 0.35 },
  'GET /v1/wallets/{id} (agent-signed)': { share: 0.5 },
};

interface Row extends Measured {
  mode: string;
}

const children: ChildProcess[] = [];
function forkTs(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(__dirname, script), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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

const http = (name: string, url: string, generator: HttpScenario['generator'], headers?: Record<string, string>): HttpScenario => ({
  kind: 'http',
  name,
  url,
  connections,
  seconds,
  warmupSeconds: warmup,
  headers,
  generator,
});

async function baselines(): Promise<Row[]> {
  const rows: Row[] = [];
  const helloPort = await findFreePort();
  const hello = await forkTs('hello-server.ts', { PORT: String(helloPort) });
  const helloNames = new Map([[hello.pid ?? -1, 'fastify hello']]);
  rows.push({ mode: '', ...(await runLoad(http('(a) Fastify hello world', `http://127.0.0.1:${helloPort}/`, { type: 'static' }), (p) => helloNames.get(p.pid))) });
  await stopChild(hello);

  const grpcPort = await findFreePort();
  const echoPort = await findFreePort();
  const echo = await forkTs('echo-server.ts', { GRPC_PORT: String(grpcPort) });
  const echoGw = await forkTs('echo-gateway.ts', { GRPC_PORT: String(grpcPort), PORT: String(echoPort) });
  const echoNames = new Map([
    [echo.pid ?? -1, 'gRPC server'],
    [echoGw.pid ?? -1, 'fastify → gRPC'],
  ]);
  rows.push({ mode: '', ...(await runLoad(http('(b) Fastify -> 1 unary gRPC call', `http://127.0.0.1:${echoPort}/`, { type: 'static' }), (p) => echoNames.get(p.pid))) });
  await stopChild(echoGw);
  await stopChild(echo);
  return rows;
}

async function exchangeRows(mode: Mode): Promise<Row[]> {
  const token = `bench-${randomBytes(12).toString('hex')}`;
  const exchange = await startExchange({ mode, token, label: 'gw' });
  try {
    const ns = `bench-${randomBytes(3).toString('hex')}`;
    const [agent] = await createAgents(exchange.url, token, { namespace: ns, name: 'a', count: 1, fund: '1' });
    const classify = exchangeClassifier({ sutGroup: exchange.pgid, dbPrefix: exchange.dbPrefix });
    const operator = { authorization: `Bearer ${token}` };
    const agentPath = `/v1/agents/${pathSegment(agent.agentId)}`;
    const walletPath = `/v1/wallets/${pathSegment(agent.agentId)}`;
    const scenarios: HttpScenario[] = [
      http('GET /v1/agents/{id} (operator)', exchange.url + agentPath, { type: 'static' }, operator),
      // The same auth and hooks with one identity call per request (the agent read above may come
      // from the gateway's agent cache): the gateway's own cost over (b).
      http('GET /v1/agents/{id}/identity_transitions (operator)', exchange.url + agentPath + '/identity_transitions', { type: 'static' }, operator),
      http('GET /v1/agents/{id} (agent-signed)', exchange.url + agentPath, { type: 'signed-get', path: agentPath, agent }),
      http('GET /v1/wallets/{id} (agent-signed)', exchange.url + walletPath, { type: 'signed-get', path: walletPath, agent }),
      http('POST /v1/agents (fresh key + proof)', exchange.url, { type: 'register', operatorToken: token, namespace: `${ns}r` }),
    ];
    const rows: Row[] = [];
    const chosen = scenarios.filter((scenario) => scenario.name.includes(only));
    if (chosen.length === 0) throw new Error(`BENCH_ONLY="${only}" matches no row: ${scenarios.map((x) => x.name).join('; ')}`);
    for (const s of chosen) rows.push({ mode, ...(await runLoad(s, classify)) });
    return rows;
  } finally {
    await exchange.stop();
  }
}

function report(rows: Row[]): string[] {
  const b = rows[1].result;
  const goal = (r: Row) => {
    const g = GOALS[r.result.name];
    if (!g) return '';
    const met = r.result.rps >= g.share * b.rps && (g.p99 === undefined || r.result.p99 < g.p99);
    return `>= ${g.share * 100}%${g.p99 ? `, p99 < ${g.p99}` : ''}: ${met ? 'met' : 'NOT met'}`;
  };
  const body = rows.map((r) => [
    r.result.name,
    r.mode,
    fmt(r.result.rps),
    fmt(r.result.p50),
    fmt(r.result.p99),
    pct(r.result.rps, b.rps),
    String(r.result.errors),
    goal(r),
  ]);
  const lines = [
    `Gateway benchmark: ${connections} connections (autocannon in its own process), ${seconds} s per row after a ${warmup} s warm-up`,
    ...runContext({ tree: benchTree(), mode: modes.join(' + ') + (only ? `, rows containing "${only}" only (BENCH_ONLY)` : '') }),
    '',
    ...table(['scenario', 'mode', 'req/s', 'p50 ms', 'p99 ms', 'vs (b)', 'errors', 'goal (vs b)'], body),
    '',
    'CPU over each measured window:',
  ];
  for (const r of rows) lines.push(`  ${r.result.name}${r.mode ? ` [${r.mode}]` : ''}`, cpuLine(r.cpu), ...r.result.sampleErrors.map((e) => `    failed: ${e}`));
  return lines;
}

async function main() {
  const rows = await baselines();
  for (const mode of modes) rows.push(...(await exchangeRows(mode)));
  const lines = report(rows);
  console.log(`\n${lines.join('\n')}`);
  record(`gateway (${modes.join(' + ')})`, lines);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const c of children) await stopChild(c);
  });
