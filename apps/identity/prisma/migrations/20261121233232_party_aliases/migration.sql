-- CreateEnum
CREATE TYPE "party_role" AS ENUM ('buyer', 'seller');

-- CreateTable
CREATE TABLE "party_aliases" (
    "alias" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "role" "party_role" NOT NULL,
    "agent_id" TEXT NOT NULL,
    "object_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "party_aliases_pkey" PRIMARY KEY ("alias")
);

-- CreateIndex
CREATE UNIQUE INDEX "party_aliases_contract_role_key" ON "party_aliases"("contract_id", "role");

