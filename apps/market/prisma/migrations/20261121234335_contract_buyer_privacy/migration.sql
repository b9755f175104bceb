-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "buyer_alias" TEXT,
ADD COLUMN     "buyer_private" BOOLEAN NOT NULL DEFAULT false;

