import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { schemaFiles } from './schema-files';

const root = join(__dirname, '../schemas');

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [relative(root, path)] : [];
  });
}

describe('schema-files.ts', () => {
  it('imports every vendored schema, and nothing else', () => {
    expect(schemaFiles.map((f) => f.path).sort()).toEqual(jsonFiles(root).sort());
  });

  it('imports each file unchanged, under the $id that matches its path', () => {
    for (const { path, schema } of schemaFiles) {
      expect(schema).toEqual(JSON.parse(readFileSync(join(root, path), 'utf8')));
      // The profile schema keeps its upstream name (profile_schema.json) but its $id says profile.json.
      const expected = `https://ucp.dev/schemas/${path.replace('discovery/profile_schema.json', 'discovery/profile.json')}`;
      expect((schema as { $id: string }).$id).toBe(expected);
    }
  });
});
