// npm run docs:errors [-- --check]
// Writes /skill.md's error table (section 11) from the one list of error codes
// (libs/platform/src/error-codes.ts). --check: exit 1 when the table is stale, writing nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { REPO_ROOT, SKILL_MD, withErrorTable } from './src/error-docs';

const doc = readFileSync(SKILL_MD, 'utf8');
const next = withErrorTable(doc);
const where = relative(REPO_ROOT, SKILL_MD);
if (next === doc) {
  console.log(`${where}: error table up to date`);
} else if (process.argv.includes('--check')) {
  console.error(`${where}: error table is stale; run npm run docs:errors`);
  process.exit(1);
} else {
  writeFileSync(SKILL_MD, next);
  console.log(`${where}: error table written`);
}
