-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "buyer_alias_generation" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "corrected_at" TIMESTAMPTZ(3),
ADD COLUMN     "correction_reason" TEXT,
ADD COLUMN     "correction_receipt_id" TEXT,
ADD COLUMN     "fixture_id" TEXT,
ADD COLUMN     "resale_of" TEXT,
ADD COLUMN     "sandbox" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "template_id" TEXT,
ADD COLUMN     "work_product_template_id" TEXT;

-- CreateTable
CREATE TABLE "resale_reviews" (
    "id" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "resale_of" TEXT NOT NULL,
    "root_contract_id" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "lineage" TEXT[],
    "status" TEXT NOT NULL,
    "decided_by" TEXT,
    "reason" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "resale_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "integrity_state" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "state" TEXT NOT NULL DEFAULT 'normal',
    "since" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT,
    "set_by" TEXT,
    "wallet_controls_version" INTEGER NOT NULL DEFAULT 0,
    "wallet_synced_version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "integrity_state_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "kill_switches" (
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "reason" TEXT,
    "set_by" TEXT,
    "updated_at" TIMESTAMPTZ(3),

    CONSTRAINT "kill_switches_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "integrity_audit" (
    "id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "details" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "integrity_audit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contract_templates" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "tags" TEXT[],
    "acceptance_criteria" TEXT NOT NULL,
    "default_verification_mode" TEXT NOT NULL,
    "default_deadline" TEXT NOT NULL,
    "suggested_budget_amount" BIGINT,
    "suggested_budget_currency" TEXT,
    "work_product_template_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contract_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "work_product_templates" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "tags" TEXT[],
    "payload_schema" JSONB NOT NULL,
    "required_artifacts" TEXT[],
    "acceptance_criteria" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "work_product_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fixtures" (
    "fixture_id" TEXT NOT NULL,
    "object_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "evidence_tier" TEXT NOT NULL,
    "determinism_class" TEXT NOT NULL,
    "spec" JSONB NOT NULL,
    "signer_agent_id" TEXT NOT NULL,
    "tags" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "fixtures_pkey" PRIMARY KEY ("fixture_id")
);

-- CreateTable
CREATE TABLE "threads" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "tags" TEXT[],
    "created_by" TEXT NOT NULL,
    "contract_id" TEXT,
    "post_count" INTEGER NOT NULL DEFAULT 0,
    "last_post_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "posts" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "attachments" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "posts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "resale_reviews_contract_id_key" ON "resale_reviews"("contract_id");

-- CreateIndex
CREATE INDEX "resale_reviews_status_idx" ON "resale_reviews"("status", "created_at", "id");

-- CreateIndex
CREATE INDEX "resale_reviews_created_idx" ON "resale_reviews"("created_at", "id");

-- CreateIndex
CREATE INDEX "integrity_audit_created_idx" ON "integrity_audit"("created_at", "id");

-- CreateIndex
CREATE INDEX "integrity_audit_action_idx" ON "integrity_audit"("action", "created_at", "id");

-- CreateIndex
CREATE INDEX "contract_templates_created_idx" ON "contract_templates"("created_at", "id");

-- CreateIndex
CREATE INDEX "work_product_templates_created_idx" ON "work_product_templates"("created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "fixtures_object_id_key" ON "fixtures"("object_id");

-- CreateIndex
CREATE INDEX "fixtures_created_idx" ON "fixtures"("created_at", "fixture_id");

-- CreateIndex
CREATE INDEX "threads_created_idx" ON "threads"("created_at", "id");

-- CreateIndex
CREATE INDEX "threads_created_by_idx" ON "threads"("created_by", "created_at", "id");

-- CreateIndex
CREATE INDEX "threads_contract_idx" ON "threads"("contract_id");

-- CreateIndex
CREATE INDEX "threads_tags_idx" ON "threads" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "posts_thread_idx" ON "posts"("thread_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "posts_attachments_idx" ON "posts" USING GIN ("attachments");

-- CreateIndex
CREATE INDEX "contracts_settled_idx" ON "contracts"("settled_at");

-- CreateIndex
CREATE INDEX "contracts_fixture_idx" ON "contracts"("fixture_id");

-- CreateIndex
CREATE INDEX "contracts_resale_of_idx" ON "contracts"("resale_of");

-- CreateIndex
CREATE INDEX "contracts_tags_idx" ON "contracts" USING GIN ("tags");

