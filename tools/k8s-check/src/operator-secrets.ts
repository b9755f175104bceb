import type { ExternalSecrets } from './checks/references';

/**
 * Reads the "Operator-provided Secrets" table of an overlay README: rows of
 * `| \`secret-name\` | \`KEY_A\`, \`KEY_B\` | … |`. The README is the documentation operators
 * read, so the check uses it directly and the two cannot drift apart.
 */
export function parseOperatorSecrets(markdown: string): ExternalSecrets {
  const section = markdown.split(/^## /m).find((s) => /^Operator-provided Secrets/i.test(s));
  if (!section) throw new Error('README has no "## Operator-provided Secrets" section');
  const secrets: ExternalSecrets = {};
  for (const line of section.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 2) continue;
    const name = /^`([a-z0-9.-]+)`$/.exec(cells[0])?.[1];
    if (!name) continue; // header or separator row
    secrets[name] = [...cells[1].matchAll(/`([A-Za-z0-9_.-]+)`/g)].map((m) => m[1]);
  }
  return secrets;
}
