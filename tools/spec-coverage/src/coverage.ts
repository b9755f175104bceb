import type { SpecArea, SpecEndpoint } from './spec-parser';
import { type Endpoint, endpointKey } from './path-template';

export interface AreaCoverage {
  name: string;
  total: number;
  implemented: number;
  missing: SpecEndpoint[];
  /** Implemented (has a route) but no e2e test mentions it. */
  untested: SpecEndpoint[];
}

export interface CoverageReport {
  areas: AreaCoverage[];
  /** Distinct spec endpoints (one endpoint may be listed under two areas). */
  total: number;
  implemented: number;
  tested: number;
  /** Routes of the OpenAPI document that no spec row describes. */
  extraRoutes: Endpoint[];
}

export function computeCoverage(areas: SpecArea[], routes: Endpoint[], isTested: (e: Endpoint) => boolean): CoverageReport {
  const routeKeys = new Set(routes.map(endpointKey));
  const specKeys = new Set<string>();
  const implementedKeys = new Set<string>();
  const testedKeys = new Set<string>();
  const result: AreaCoverage[] = areas.map((area) => {
    const missing: SpecEndpoint[] = [];
    const untested: SpecEndpoint[] = [];
    for (const e of area.endpoints) {
      const key = endpointKey(e);
      specKeys.add(key);
      if (!routeKeys.has(key)) {
        missing.push(e);
        continue;
      }
      implementedKeys.add(key);
      if (isTested(e)) testedKeys.add(key);
      else untested.push(e);
    }
    return { name: area.name, total: area.endpoints.length, implemented: area.endpoints.length - missing.length, missing, untested };
  });
  return {
    areas: result,
    total: specKeys.size,
    implemented: implementedKeys.size,
    tested: testedKeys.size,
    extraRoutes: routes.filter((r) => !specKeys.has(endpointKey(r))),
  };
}
