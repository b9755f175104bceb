import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The Markdown documents ship next to this file in the source tree and under `docs/` next to
// the esbuild bundle (project.json assets), so both locations are tried.

export type DocName = 'skill.md' | 'quickstart.md';

const CANDIDATE_DIRS = [__dirname, join(__dirname, 'docs')];

export function loadDoc(name: DocName): string {
  for (const dir of CANDIDATE_DIRS) {
    const file = join(dir, name);
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  throw new Error(`gateway document ${name} not found in ${CANDIDATE_DIRS.join(', ')}`);
}

/** Replaces `{{NAME}}` placeholders; unknown ones are left visible rather than silently blanked. */
export function renderDoc(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}
