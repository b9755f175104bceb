/**
 * Light Dockerfile rules: every base image is pinned (explicit tag or digest, never
 * `latest`), the final stage switches to a non-root USER and starts with an exec-form CMD.
 */
export function lintDockerfile(text: string): string[] {
  const problems: string[] = [];
  const instructions = logicalLines(text).map((line) => {
    const m = /^(\S+)\s*(.*)$/.exec(line) as RegExpExecArray;
    return { op: m[1].toUpperCase(), args: m[2] };
  });
  const args = new Map<string, string>();
  const stages: string[] = [];
  let final: { user?: string; cmd?: string } | undefined;
  for (const { op, args: rest } of instructions) {
    if (op === 'ARG' && stages.length === 0) {
      const [k, v] = rest.split('=');
      if (v !== undefined) args.set(k.trim(), v.trim().replace(/^"|"$/g, ''));
    }
    if (op === 'FROM') {
      const words = rest.split(/\s+/).filter((w) => !w.startsWith('--'));
      const image = words[0].replace(/\$\{?(\w+)\}?/g, (_, name: string) => args.get(name) ?? `$${name}`);
      const alias = words[1]?.toLowerCase() === 'as' ? words[2] : undefined;
      if (!stages.includes(image)) problems.push(...imageProblems(image));
      stages.push(alias ?? `#${stages.length}`);
      final = {};
    }
    if (op === 'USER' && final) final.user = rest.trim();
    if (op === 'CMD' && final) final.cmd = rest.trim();
  }
  if (!final) return ['no FROM instruction'];
  const user = final.user?.split(':')[0];
  if (!user) problems.push('final stage has no USER (it would run as root)');
  else if (user === 'root' || user === '0') problems.push(`final stage runs as ${user}`);
  if (!final.cmd) problems.push('final stage has no CMD');
  else if (!isExecForm(final.cmd)) problems.push('CMD must be exec form (a JSON array) so signals reach node');
  return problems;
}

function imageProblems(image: string): string[] {
  if (image.includes('$')) return [`FROM ${image}: unresolved variable`];
  if (image.includes('@sha256:')) return [];
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  if (colon <= slash) return [`FROM ${image}: no tag (implies latest)`];
  if (image.slice(colon + 1) === 'latest') return [`FROM ${image}: uses latest`];
  return [];
}

function isExecForm(cmd: string): boolean {
  try {
    const v = JSON.parse(cmd) as unknown;
    return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
  } catch {
    return false;
  }
}

/** Joins backslash continuations and drops comments and blank lines. */
function logicalLines(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    if (current.trim()) out.push(current.trim());
    current = '';
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
