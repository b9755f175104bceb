import { PrismaPg } from '@prisma/adapter-pg';

/**
 * A Prisma client (generated with engineType "client") on the pg driver adapter: no Rust query
 * engine at run time (notes/prisma-offline.md).
 */
export function createPrismaClient<T>(
  PrismaClient: new (opts: { adapter: unknown }) => T,
  connectionString: string,
  opts: { max?: number } = {},
): T {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: opts.max ?? 10 }) });
}
