// npm run spec:coverage [-- --spec <exchange-spec.md>] [--openapi <openapi.json>]
// Prints, per spec area, which endpoints the gateway implements and which lack an e2e test.
// Exit 1 only when the OpenAPI document cannot be produced or read.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { computeCoverage } from './src/coverage';
import { formatReport } from './src/format';
import { openApiEndpoints } from './src/openapi';
import { parseSpecEndpoints } from './src/spec-parser';
import { isMentioned, readE2eTestFiles } from './src/test-index';

const repoRoot = path.resolve(__dirname, '../..');
// The spec is vendored (docs/spec) so a clone builds on its own; the team's shared copy beside
// the repository, when present, is compared so a stale vendored copy is noticed.
const vendoredSpec = path.resolve(repoRoot, 'docs/spec/exchange-spec.md');
const sharedSpec = path.resolve(repoRoot, '../shared/spec/exchange-spec.md');
if (fs.existsSync(sharedSpec) && fs.readFileSync(sharedSpec, 'utf8') !== fs.readFileSync(vendoredSpec, 'utf8')) {
  console.error(`spec-coverage: warning: ${vendoredSpec} differs from ${sharedSpec}; copy the shared one over it`);
}
const { values } = parseArgs({
  options: {
    spec: { type: 'string', default: vendoredSpec },
    openapi: { type: 'string' },
  },
});

function loadOpenApi(file: string | undefined): unknown {
  if (file) return JSON.parse(fs.readFileSync(file, 'utf8'));
  // The gateway prints its document without connecting to any service.
  const out = execFileSync('npx', ['tsx', 'apps/gateway/src/openapi-dump.ts'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out);
}

let routes;
try {
  routes = openApiEndpoints(loadOpenApi(values.openapi));
} catch (err) {
  console.error(`spec-coverage: cannot produce the OpenAPI document: ${(err as Error).message}`);
  process.exit(1);
}
const areas = parseSpecEndpoints(fs.readFileSync(values.spec as string, 'utf8'));
const files = readE2eTestFiles(repoRoot);
console.log(formatReport(computeCoverage(areas, routes, (e) => isMentioned(e, files))));
