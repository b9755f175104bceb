-- AlterTable
ALTER TABLE "checkout_sessions" ADD COLUMN     "origin_contract_id" TEXT,
ADD COLUMN     "origin_workflow_run_id" TEXT;

-- AlterTable
ALTER TABLE "purchases" ADD COLUMN     "origin_contract_id" TEXT,
ADD COLUMN     "origin_workflow_run_id" TEXT;


-- A checkout comes from at most one source (schema.prisma cannot express CHECKs).
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_origin_one" CHECK ("origin_contract_id" IS NULL OR "origin_workflow_run_id" IS NULL);
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_origin_one" CHECK ("origin_contract_id" IS NULL OR "origin_workflow_run_id" IS NULL);
