import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

// CPU per process over the measured window, read from /proc/<pid>/stat (utime + stime), so a
// table can say which process saturates the machine. Linux only; elsewhere it reports nothing.

const TICKS_PER_S = 100; // USER_HZ: 100 on every Linux architecture the exchange runs on

export interface ProcInfo {
  pid: number;
  pgrp: number;
  comm: string;
  cmdline: string;
}

export interface CpuReport {
  /** Busy share of the whole machine, 100% = one core. */
  machinePct: number;
  cores: number;
  byLabel: Array<{ label: string; pct: number }>;
}

/** Fields 5 (pgrp), 14 + 15 (utime + stime) and 22 (starttime) of /proc/<pid>/stat; undefined once the process is gone. */
function readStat(pid: number): { pgrp: number; comm: string; ticks: number; startTicks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces: the fields after its closing one are fixed.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    // f[0] is field 3 (state): pgrp is field 5, utime 14, stime 15, starttime 22.
    return { pgrp: Number(f[2]), comm, ticks: Number(f[11]) + Number(f[12]), startTicks: Number(f[19]) };
  } catch {
    return undefined; // gone meanwhile
  }
}

function readCmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return undefined; // gone meanwhile
  }
}

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = line.slice(0, 8).reduce((s, v) => s + v, 0);
  const idle = line[3] + line[4]; // idle + iowait
  return { busy: total - idle, total };
}

const uptimeTicks = () => Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * TICKS_PER_S;

/** Samples every process `classify` names, twice a second, between start() and stop(). */
export class CpuSampler {
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private windowStartTicks = 0;
  private machineStart = { busy: 0, total: 0 };
  private readonly seen = new Map<number, { label: string; first: number; last: number }>();
  /** Pids `classify` turned down: their cmdline and stat are read once, on first sight. */
  private readonly rejected = new Set<number>();

  constructor(private readonly classify: (p: ProcInfo) => string | undefined) {}

  start(): void {
    if (process.platform !== 'linux') return;
    this.seen.clear();
    this.rejected.clear();
    this.startedAt = performance.now();
    this.windowStartTicks = uptimeTicks();
    this.machineStart = machineTicks();
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), 500);
  }

  stop(): CpuReport | undefined {
    if (this.timer === undefined) return undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    this.sample(false);
    const seconds = (performance.now() - this.startedAt) / 1000;
    const machine = machineTicks();
    const cores = cpus().length;
    const totalTicks = machine.total - this.machineStart.total;
    const byLabelTicks = new Map<string, number>();
    for (const p of this.seen.values()) byLabelTicks.set(p.label, (byLabelTicks.get(p.label) ?? 0) + p.last - p.first);
    const pct = (ticks: number) => (100 * ticks) / (seconds * TICKS_PER_S);
    const machinePct = totalTicks > 0 ? (100 * cores * (machine.busy - this.machineStart.busy)) / totalTicks : NaN;
    const byLabel = [...byLabelTicks].map(([label, ticks]) => ({ label, pct: pct(ticks) }));
    // What nobody sampled used: other work on the machine (noise), the kernel, short-lived processes.
    const other = machinePct - byLabel.reduce((s, p) => s + p.pct, 0);
    if (other > 0) byLabel.push({ label: 'everything else on the machine', pct: other });
    return { cores, machinePct, byLabel: byLabel.sort((a, b) => b.pct - a.pct) };
  }

  private sample(initial: boolean): void {
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid)) continue;
      if (this.rejected.has(pid)) continue;
      const known = this.seen.get(pid);
      const stat = readStat(pid);
      if (known) {
        if (stat) known.last = stat.ticks;
        continue;
      }
      if (!stat) continue;
      const cmdline = readCmdline(pid);
      if (cmdline === undefined) continue;
      const label = this.classify({ pid, pgrp: stat.pgrp, comm: stat.comm, cmdline });
      if (label === undefined) {
        this.rejected.add(pid);
        continue;
      }
      // A process born inside the window counts from zero; one found later than that, from now.
      const first = !initial && stat.startTicks >= this.windowStartTicks ? 0 : stat.ticks;
      this.seen.set(pid, { label, first, last: stat.ticks });
    }
  }
}

/** What the benches care about: the exchange's processes by app, PostgreSQL, NATS, the load generator. */
export function exchangeClassifier(ctx: { sutGroup?: number; dbPrefix?: string }): (p: ProcInfo) => string | undefined {
  return (p) => {
    if (p.comm === 'postgres' || p.cmdline.startsWith('postgres:')) {
      const backend = /^postgres: (?:[^:]+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(p.cmdline);
      if (!backend) return 'postgres (server: wal, checkpoints…)';
      // The run's databases are <prefix><service>: each service's share of PostgreSQL's work.
      if (ctx.dbPrefix && backend[1].startsWith(ctx.dbPrefix)) return `postgres (${backend[1].slice(ctx.dbPrefix.length) || 'bench'} db)`;
      return 'postgres (other clients)';
    }
    if (p.comm === 'nats-server') return 'nats-server';
    if (ctx.sutGroup !== undefined && p.pgrp === ctx.sutGroup) {
      const app = /apps\/([a-z-]+)\/src\/main\.ts|dist\/apps\/([a-z-]+)\/main\.js/.exec(p.cmdline);
      if (app) return (app[1] ?? app[2]) === 'exchange' ? 'exchange (all-in-one)' : (app[1] ?? app[2]);
      if (p.cmdline.includes('run-services')) return 'run-services (launcher)';
      return p.comm;
    }
    return undefined;
  };
}
