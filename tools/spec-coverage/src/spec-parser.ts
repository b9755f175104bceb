import type { Endpoint } from './path-template';

export interface SpecEndpoint extends Endpoint {
  purpose: string;
}

export interface SpecArea {
  /** The `###` heading under "Endpoints", e.g. "Agents", "Billing (operator only)". */
  name: string;
  endpoints: SpecEndpoint[];
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads the endpoint tables of the spec's "Endpoints" section (§4): one area per `###`
 * heading, one endpoint per table row `| METHOD | path | purpose |`. An area may declare a
 * common prefix ("All paths start with /v1/wallets/{agent_id}."); its rows are then suffixes
 * and `(none)` means the prefix itself.
 */
export function parseSpecEndpoints(markdown: string): SpecArea[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^## .*\bEndpoints\b/.test(l));
  if (start < 0) throw new Error('spec has no "## … Endpoints" section');
  const areas: SpecArea[] = [];
  let prefix = '';
  for (const line of lines.slice(start + 1)) {
    if (/^## /.test(line)) break;
    const heading = /^### +(.+?)\s*$/.exec(line);
    if (heading) {
      areas.push({ name: heading[1], endpoints: [] });
      prefix = '';
      continue;
    }
    const area = areas[areas.length - 1];
    if (!area) continue;
    const declared = /All paths start with (\/\S+?)\.?\s*$/.exec(line);
    if (declared) {
      prefix = declared[1];
      continue;
    }
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 2 || !METHODS.has(cells[0])) continue;
    const path = cells[1] === '(none)' ? prefix : `${prefix}${cells[1]}`;
    if (!path.startsWith('/')) throw new Error(`spec row has no absolute path: ${line}`);
    area.endpoints.push({ method: cells[0], path, purpose: cells[2] ?? '' });
  }
  return areas;
}
