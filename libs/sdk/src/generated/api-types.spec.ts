import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

// api-types.ts is generated from the document the gateway serves at /openapi.json. A gateway
// schema change without regenerating would let the SDK's types drift from the wire: this test
// regenerates the file in memory (the generator in its own process, as the command does) and
// fails on any difference.

const repoRoot = path.resolve(__dirname, '../../../..');
const COMMAND = 'npx tsx tools/codegen/sdk-types.ts';

function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const line = left.findIndex((l, i) => l !== right[i]);
  const at = line === -1 ? Math.min(left.length, right.length) : line;
  return `first difference at line ${at + 1}:\n  committed:   ${right[at] ?? '<end of file>'}\n  regenerated: ${left[at] ?? '<end of file>'}`;
}

describe('generated/api-types.ts', () => {
  it('matches the gateway document (else run `npx tsx tools/codegen/sdk-types.ts`)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [require.resolve('tsx/cli'), 'tools/codegen/sdk-types.ts', '--stdout'], {
      cwd: repoRoot,
      maxBuffer: 64 * 1024 * 1024,
    });
    const committed = readFileSync(path.join(__dirname, 'api-types.ts'), 'utf8');
    if (stdout !== committed) {
      throw new Error(`libs/sdk/src/generated/api-types.ts is stale: run \`${COMMAND}\` and commit the result.\n${firstDifference(stdout, committed)}`);
    }
  }, 180_000);
});
