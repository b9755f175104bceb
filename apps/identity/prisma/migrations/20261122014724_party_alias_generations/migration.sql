-- DropIndex
DROP INDEX "party_aliases_contract_role_key";

-- AlterTable
ALTER TABLE "party_aliases" ADD COLUMN     "generation" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "party_aliases_contract_role_generation_key" ON "party_aliases"("contract_id", "role", "generation");

