-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "contracts" (
    "id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "tags" TEXT[],
    "budget_amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "deadline" TIMESTAMPTZ(3) NOT NULL,
    "acceptance_criteria" TEXT NOT NULL,
    "verification_mode" TEXT NOT NULL,
    "verifier_id" TEXT,
    "listing_id" TEXT,
    "status" TEXT NOT NULL,
    "seller_id" TEXT,
    "awarded_offer_id" TEXT,
    "price_amount" BIGINT,
    "hold_id" TEXT,
    "escrow_status" TEXT NOT NULL DEFAULT 'none',
    "receipt_id" TEXT,
    "disputed_from" TEXT,
    "cancel_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "awarded_at" TIMESTAMPTZ(3),
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "contracts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "listings" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "tags" TEXT[],
    "price_amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "turnaround" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "listings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offers" (
    "id" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "price_amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "eta" TIMESTAMPTZ(3) NOT NULL,
    "terms" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "results" (
    "id" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "artifact_refs" TEXT[],
    "payload_json" TEXT,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_reports" (
    "id" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "result_id" TEXT NOT NULL,
    "verifier_id" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "checks" JSONB NOT NULL,
    "signature" TEXT NOT NULL,
    "result_created_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "verification_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verifiers" (
    "verifier_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "tags" TEXT[],
    "fee_amount" BIGINT,
    "fee_currency" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "verifiers_pkey" PRIMARY KEY ("verifier_id")
);

-- CreateTable
CREATE TABLE "verifier_listings" (
    "id" TEXT NOT NULL,
    "verifier_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "tags" TEXT[],
    "price_amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "turnaround" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "verifier_listings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "disputes" (
    "id" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "opened_by" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "evidence_refs" TEXT[],
    "status" TEXT NOT NULL,
    "outcome" TEXT,
    "seller_share_bps" INTEGER,
    "rationale" TEXT,
    "resolved_by" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "receipt_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "disputes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saga_steps" (
    "step_id" UUID NOT NULL,
    "contract_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "params" JSONB NOT NULL,
    "wallet_key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "saga_steps_pkey" PRIMARY KEY ("step_id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "scope" TEXT NOT NULL,
    "rpc" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("scope","rpc","key")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE INDEX "contracts_created_idx" ON "contracts"("created_at", "id");

-- CreateIndex
CREATE INDEX "contracts_buyer_idx" ON "contracts"("buyer_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "contracts_seller_idx" ON "contracts"("seller_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "contracts_status_idx" ON "contracts"("status", "created_at", "id");

-- CreateIndex
CREATE INDEX "contracts_deadline_idx" ON "contracts"("status", "deadline");

-- CreateIndex
CREATE INDEX "listings_created_idx" ON "listings"("created_at", "id");

-- CreateIndex
CREATE INDEX "listings_tags_idx" ON "listings" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "offers_contract_idx" ON "offers"("contract_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "offers_contract_seller_idx" ON "offers"("contract_id", "seller_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "offers_contract_status_idx" ON "offers"("contract_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "results_contract_idx" ON "results"("contract_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "results_contract_seller_idx" ON "results"("contract_id", "seller_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "results_contract_status_idx" ON "results"("contract_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "verification_reports_contract_idx" ON "verification_reports"("contract_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "verification_reports_created_idx" ON "verification_reports"("created_at", "id");

-- CreateIndex
CREATE INDEX "verifiers_created_idx" ON "verifiers"("created_at", "verifier_id");

-- CreateIndex
CREATE INDEX "verifier_listings_created_idx" ON "verifier_listings"("created_at", "id");

-- CreateIndex
CREATE INDEX "verifier_listings_verifier_idx" ON "verifier_listings"("verifier_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "disputes_contract_idx" ON "disputes"("contract_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "disputes_contract_opened_by_idx" ON "disputes"("contract_id", "opened_by", "created_at", "id");

-- CreateIndex
CREATE INDEX "disputes_contract_status_idx" ON "disputes"("contract_id", "status", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "saga_steps_wallet_key_key" ON "saga_steps"("wallet_key");

-- CreateIndex
CREATE INDEX "saga_steps_contract_idx" ON "saga_steps"("contract_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "saga_steps_pending_idx" ON "saga_steps"("status", "created_at");

-- CreateIndex
CREATE INDEX "idempotency_records_created_idx" ON "idempotency_records"("created_at");

-- CreateIndex
CREATE INDEX "outbox_events_relay_idx" ON "outbox_events"("published_at", "created_at", "id");

