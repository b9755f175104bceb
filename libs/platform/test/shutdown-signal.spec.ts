import { spawn } from 'node:child_process';
import { join } from 'node:path';

const CHILD = join(__dirname, 'fixtures', 'shutdown-child.ts');

/** Runs the fixture in a real process, sends `signal` once it is ready, returns exit code and log. */
function runChild(mode: 'ok' | 'hang', signal: NodeJS.Signals): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        // Anything that is not a log line (a runtime warning) is kept verbatim for the diff.
        const line = text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { msg: `non-log: ${text}` };
        lines.push(line);
        if (line.msg === 'ready') child.kill(signal);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, lines }));
  });
}

describe('onShutdown with real signals', () => {
  it('should run the steps on SIGTERM and exit 0', async () => {
    const { code, lines } = await runChild('ok', 'SIGTERM');
    expect(code).toBe(0);
    const messages = lines.map((l) => l.msg);
    expect(messages).toEqual(['ready', 'signal received', 'shutting down', 'closing things', 'shutdown step done', 'shutdown complete']);
    expect(lines[1].signal).toBe('SIGTERM');
  });

  it('should also react to SIGINT', async () => {
    const { code, lines } = await runChild('ok', 'SIGINT');
    expect(code).toBe(0);
    expect(lines.map((l) => l.msg)).toContain('shutdown complete');
  });

  it('should exit 1 when a step outlasts the timeout', async () => {
    const { code, lines } = await runChild('hang', 'SIGTERM');
    expect(code).toBe(1);
    expect(lines.map((l) => l.msg)).toContain('shutdown timed out');
  });
});
