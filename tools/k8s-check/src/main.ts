// CLI: renders every overlay and every app Dockerfile and prints what breaks the rules.
//   npx tsx tools/k8s-check/src/main.ts   (exit 1 on any problem)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lintDockerfile } from './dockerfile-lint';
import { checkOverlay, overlayRules } from './overlay-checks';
import { kubectlAvailable, renderKustomization } from './render';

const repoRoot = path.resolve(__dirname, '../../..');
let failed = false;

if (!kubectlAvailable()) {
  console.error('kubectl not found on PATH: cannot render overlays');
  process.exit(1);
}
for (const rules of overlayRules(repoRoot)) {
  const problems = checkOverlay(renderKustomization(rules.dir), rules);
  console.log(`${rules.name}: ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}`);
  for (const p of problems) console.log(`  - ${p}`);
  failed ||= problems.length > 0;
}
const appsDir = path.join(repoRoot, 'apps');
for (const app of fs.existsSync(appsDir) ? fs.readdirSync(appsDir).sort() : []) {
  const file = path.join(appsDir, app, 'Dockerfile');
  if (!fs.existsSync(file)) continue;
  const problems = lintDockerfile(fs.readFileSync(file, 'utf8'));
  console.log(`apps/${app}/Dockerfile: ${problems.length === 0 ? 'ok' : problems.join('; ')}`);
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
