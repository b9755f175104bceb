-- AlterTable
-- Contract labels (caller-defined public tags, e.g. the workflows run/stage/shard/attempt) and
-- input refs. NOT NULL added by hand: Prisma cannot declare a required list, and every row has one.
ALTER TABLE "contracts" ADD COLUMN     "input_refs" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "labels" JSONB NOT NULL DEFAULT '{}';
