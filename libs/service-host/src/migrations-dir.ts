import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a service's SQL migrations are, from the directory of its index (`__dirname`): tsx/jest
 * run from apps/<service>/src (prisma/ one level up); the service's bundle has prisma/ beside it;
 * the all-in-one bundle (apps/exchange) copies it to <service>/prisma/. The first candidate is
 * returned when none exists, so the runner's error names the expected place.
 */
export function findMigrationsDir(fromDir: string, service: string): string {
  const candidates = [
    path.join(fromDir, '..', 'prisma', 'migrations'),
    path.join(fromDir, 'prisma', 'migrations'),
    path.join(fromDir, service, 'prisma', 'migrations'),
  ];
  return candidates.find((dir) => fs.existsSync(dir)) ?? candidates[0];
}
