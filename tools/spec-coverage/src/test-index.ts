import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Endpoint } from './path-template';

export interface SourceFile {
  path: string;
  content: string;
}

/**
 * Convention: an endpoint "has a test" when some e2e spec file mentions `<METHOD> <path>`,
 * usually as a describe/it title, e.g. `describe('POST /v1/agents/{agent_id}/identity_level')`.
 * Parameter names are free (`{id}` matches `{agent_id}`), and the path must end there, so
 * `GET /v1/agents/{agent_id}` does not count as a test of `GET /v1/agents`.
 */
export function mentionPattern(e: Endpoint): RegExp {
  const escaped = e.path
    .split(/\{[^}/]*\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\{[^}/]+\\}');
  return new RegExp(`(?<![A-Za-z])${e.method.toUpperCase()} ${escaped}(?![A-Za-z0-9_/{}-])`);
}

export function isMentioned(e: Endpoint, files: SourceFile[]): boolean {
  const pattern = mentionPattern(e);
  return files.some((f) => pattern.test(f.content));
}

/** apps/<app>/test/**\/*.spec.ts under the repository root. */
export function readE2eTestFiles(repoRoot: string): SourceFile[] {
  const appsDir = path.join(repoRoot, 'apps');
  if (!fs.existsSync(appsDir)) return [];
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.spec.ts')) files.push({ path: path.relative(repoRoot, full), content: fs.readFileSync(full, 'utf8') });
    }
  };
  for (const app of fs.readdirSync(appsDir).sort()) {
    const testDir = path.join(appsDir, app, 'test');
    if (fs.existsSync(testDir)) walk(testDir);
  }
  return files;
}
