import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMigrationsDir } from './migrations-dir';

describe('findMigrationsDir', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'migrations-dir-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds prisma/ beside the sources (tsx, jest)', () => {
    mkdirSync(join(root, 'prisma', 'migrations'), { recursive: true });
    expect(findMigrationsDir(join(root, 'src'), 'svc')).toBe(join(root, 'prisma', 'migrations'));
  });

  it('finds prisma/ beside the bundle, then the all-in-one bundle copy', () => {
    mkdirSync(join(root, 'svc', 'prisma', 'migrations'), { recursive: true });
    expect(findMigrationsDir(root, 'svc')).toBe(join(root, 'svc', 'prisma', 'migrations'));
    mkdirSync(join(root, 'prisma', 'migrations'), { recursive: true });
    expect(findMigrationsDir(root, 'svc')).toBe(join(root, 'prisma', 'migrations'));
  });

  it('names the first place when none exists', () => {
    expect(findMigrationsDir(join(root, 'src'), 'svc')).toBe(join(root, 'prisma', 'migrations'));
  });
});
