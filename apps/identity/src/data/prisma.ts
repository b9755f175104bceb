import { createPrismaClient } from '@exchange/db';
import { PrismaClient } from './generated/prisma/client';

export type IdentityPrisma = PrismaClient;
/** A Prisma interactive-transaction client (what `$transaction(async (tx) => …)` hands out). */
export type IdentityTx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

// createPrismaClient types the adapter as `unknown`, which the generated constructor (expecting
// SqlDriverAdapterFactory) cannot accept under strict parameter variance; the cast is only that.
const Client = PrismaClient as unknown as new (opts: { adapter: unknown }) => PrismaClient;

export function createIdentityPrisma(databaseUrl: string, max = 5): IdentityPrisma {
  return createPrismaClient(Client, databaseUrl, { max });
}
