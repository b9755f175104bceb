import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog, type Catalog } from './catalog';

/**
 * Where the seed CSVs are: `dir` when configured (CATALOG_DIR), else beside this file (sources,
 * tests) or in `catalog/` beside the bundle (the build copies them there as assets).
 */
export function findCatalogDir(dir?: string): string {
  const candidates = dir ? [dir] : [__dirname, join(__dirname, 'catalog')];
  const found = candidates.find((candidate) => existsSync(join(candidate, 'products.csv')));
  if (!found) throw new Error(`catalog seed (products.csv) not found in ${candidates.join(', ')}`);
  return found;
}

export function loadCatalog(dir?: string): Catalog {
  const base = findCatalogDir(dir);
  const read = (name: string) => readFileSync(join(base, name), 'utf8');
  return buildCatalog({
    products: read('products.csv'),
    inventory: read('inventory.csv'),
    discounts: read('discounts.csv'),
    sandboxDiscounts: read('sandbox-discounts.csv'),
  });
}
