import { findFreePort } from '@exchange/db';
import { zeroPayloadArchive } from '@exchange/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Issue 12 finding 8, measured: N anonymous POST /ui/casefile/verify at once, each a ~300 KiB
// casefile archive that inflates to ~300 MiB, against `npm start` (the whole exchange in one
// process) — while /health is polled. Prints the statuses, the bomb latencies, the worst /health
// latency during the burst and the process's RSS (baseline and peak, from /proc/<pid>/status).
// Not a test: figures for the README. Settings: BOMBS (32), BOMB_MIB (300), CASEFILE_VERIFY_LIMIT
// (the gateway's RATE_LIMIT_CASEFILE_VERIFY; default: the gateway's own).

const repoRoot = resolve(__dirname, '../../..');
const BOMBS = Number(process.env.BOMBS ?? 32);
const BOMB_MIB = Number(process.env.BOMB_MIB ?? 300);

/** VmRSS and VmHWM (peak) of a process, in MiB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: Math.round(kib('VmRSS') / 1024), peak: Math.round(kib('VmHWM') / 1024) };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function main() {
  const port = await findFreePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-bomb-'));
  chmodSync(dataDir, 0o755);
  const url = `http://127.0.0.1:${port}`;
  // One process, as `npm start` runs it (tsx as a loader, so the pid is the exchange's own).
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/exchange/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      EXCHANGE_DATA_DIR: dataDir,
      EXCHANGE_DB_PREFIX: `bench_bomb_${randomBytes(3).toString('hex')}_`,
      OPERATOR_TOKEN: `bench-${randomBytes(8).toString('hex')}`,
      LOG_LEVEL: 'warn',
      ...(process.env.CASEFILE_VERIFY_LIMIT ? { RATE_LIMIT_CASEFILE_VERIFY: process.env.CASEFILE_VERIFY_LIMIT } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const pid = child.pid;
  if (pid === undefined) throw new Error('the exchange process did not start');
  try {
    for (let i = 0; ; i++) {
      if (i > 240) throw new Error('the exchange did not start within 120 s');
      const ok = await fetch(`${url}/health`).then((r) => r.status === 200, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const archive = await zeroPayloadArchive(BOMB_MIB);
    const before = memoryOf(pid);
    process.stdout.write(`bomb: ${(archive.length / 1024).toFixed(0)} KiB inflating to ${BOMB_MIB} MiB; ${BOMBS} at once; RSS before ${before.rss} MiB (peak so far ${before.peak} MiB)\n`);

    let burst = true;
    const healthMs: number[] = [];
    const poll = (async () => {
      while (burst) {
        const t = performance.now();
        await fetch(`${url}/health`).catch(() => undefined);
        healthMs.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: BOMBS }, async () => {
        const t = performance.now();
        const res = await fetch(`${url}/ui/casefile/verify`, { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: archive });
        const body = (await res.json().catch(() => ({}))) as { code?: string };
        return { status: res.status, code: body.code ?? '', ms: performance.now() - t };
      }),
    );
    const wall = performance.now() - started;
    burst = false;
    await poll;
    const after = memoryOf(pid);

    const byStatus = new Map<string, number>();
    for (const r of results) byStatus.set(`${r.status} ${r.code}`, (byStatus.get(`${r.status} ${r.code}`) ?? 0) + 1);
    const ms = results.map((r) => r.ms);
    process.stdout.write(
      [
        `statuses: ${[...byStatus].map(([k, n]) => `${n} × ${k}`).join(', ')}`,
        `bomb latency: p50 ${percentile(ms, 50).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms; burst ${wall.toFixed(0)} ms`,
        `/health during the burst: ${healthMs.length} polls, p50 ${percentile(healthMs, 50).toFixed(0)} ms, max ${Math.max(...healthMs).toFixed(0)} ms`,
        `RSS: before ${before.rss} MiB, after ${after.rss} MiB, peak ${after.peak} MiB`,
        '',
      ].join('\n'),
    );
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
