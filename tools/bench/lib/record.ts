import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { CpuReport } from './cpu';
import { fmt } from './table';

// The run's context (machine, trees, load before the run) and its append-only log,
// tools/bench/RESULTS.md: every run appends its dated section unless BENCH_RECORD=0, so a
// regression shows. BENCH_NOTE labels the section (e.g. "quiet machine, before issue 20").

const resultsFile = join(__dirname, '..', 'RESULTS.md');

function gitRev(tree: string): string {
  try {
    const rev = execFileSync('git', ['-C', tree, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['-C', tree, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${rev}+uncommitted` : rev;
  } catch {
    return 'unknown';
  }
}

function cpuModel(): string {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
  } catch {
    return cpus()[0]?.model ?? 'unknown';
  }
}

export function runContext(opts: { tree: string; mode: string }): string[] {
  const harness = join(__dirname, '../../..');
  return [
    `date: ${new Date().toISOString()}; machine: ${cpus().length} cores, ${cpuModel()}; node ${process.version}; load average before the run ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `system under test: ${opts.tree} @ ${gitRev(opts.tree)}, ${opts.mode}; harness and load generator: ${harness} @ ${gitRev(harness)}`,
    ...(process.env.BENCH_NOTE ? [`note: ${process.env.BENCH_NOTE}`] : []),
  ];
}

/** CPU per process over a measured window, one line. */
export function cpuLine(cpu: CpuReport | undefined): string {
  if (!cpu) return '    CPU: not sampled';
  const top = cpu.byLabel.filter((p) => p.pct >= 1).map((p) => `${p.label} ${fmt(p.pct)}%`);
  return `    CPU (100% = 1 core; machine ${fmt(cpu.machinePct)}% of ${cpu.cores * 100}%): ${top.join(', ')}`;
}

export function record(title: string, lines: string[]): void {
  if (process.env.BENCH_RECORD === '0') return;
  appendFileSync(resultsFile, `\n## ${title} — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n`);
  console.log(`\n(appended to ${resultsFile}; BENCH_RECORD=0 skips that)`);
}
