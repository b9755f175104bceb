import { fork } from 'node:child_process';
import { join, resolve } from 'node:path';
import { CpuSampler, type CpuReport, type ProcInfo } from './cpu';
import type { LoadResult, Scenario } from './scenario';

// Harness side: runs one scenario in a fresh load-generator process (lib/loadgen.ts), so the
// generator's CPU never shares the harness's event loop, and samples per-process CPU over the
// window the generator reports as measured.

const repoRoot = resolve(__dirname, '../../..');

export interface Measured {
  result: LoadResult;
  cpu?: CpuReport;
}

export function runLoad(scenario: Scenario, classify: (p: ProcInfo) => string | undefined): Promise<Measured> {
  const child = fork(join(__dirname, 'loadgen.ts'), [JSON.stringify(scenario)], {
    cwd: repoRoot,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const pid = child.pid ?? -1;
  const sampler = new CpuSampler((p) => (p.pid === pid ? 'load generator' : classify(p)));
  let cpu: CpuReport | undefined;
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.on('message', (m: { phase?: string }) => {
    if (m.phase === 'measure-start') sampler.start();
    if (m.phase === 'measure-end') cpu = sampler.stop();
  });
  return new Promise((res, rej) => {
    child.once('exit', (code) => {
      cpu ??= sampler.stop();
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || line === '') return rej(new Error(`${scenario.name}: the load generator exited with ${code}`));
      try {
        res({ result: JSON.parse(line) as LoadResult, cpu });
      } catch {
        rej(new Error(`${scenario.name}: the load generator printed no JSON result: ${line.slice(0, 200)}`));
      }
    });
  });
}
