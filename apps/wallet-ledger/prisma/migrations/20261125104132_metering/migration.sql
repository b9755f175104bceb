-- CreateTable
CREATE TABLE "meter_epoch_tables" (
    "object_id" TEXT NOT NULL,
    "epoch" TEXT NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    "effective_to" TIMESTAMPTZ(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "payload_json" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "signer_public_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "meter_epoch_tables_pkey" PRIMARY KEY ("object_id")
);

-- CreateTable
CREATE TABLE "meter_epoch_prices" (
    "epoch" TEXT NOT NULL,
    "meter" TEXT NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    "effective_to" TIMESTAMPTZ(3) NOT NULL,
    "unit_price" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,

    CONSTRAINT "meter_epoch_prices_pkey" PRIMARY KEY ("epoch","meter")
);

-- CreateTable
CREATE TABLE "meter_events" (
    "object_id" TEXT NOT NULL,
    "signer_agent_id" TEXT NOT NULL,
    "subject_agent_id" TEXT NOT NULL,
    "meter" TEXT NOT NULL,
    "quantity" BIGINT NOT NULL,
    "unit" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "epoch" TEXT NOT NULL,
    "ref" TEXT,
    "period" TEXT NOT NULL,
    "unit_price" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "payload_json" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "meter_events_pkey" PRIMARY KEY ("object_id")
);

-- CreateTable
CREATE TABLE "billing_projections" (
    "projection_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "event_count" INTEGER NOT NULL,
    "events_sha256" TEXT NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,
    "period_receipt_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "billing_projections_pkey" PRIMARY KEY ("projection_id")
);

-- CreateTable
CREATE TABLE "period_receipts" (
    "period_receipt_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "projection_id" TEXT NOT NULL,
    "object_id" TEXT,
    "payload_json" TEXT,
    "signature" TEXT,
    "signer_public_key" TEXT,
    "emitted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "period_receipts_pkey" PRIMARY KEY ("period_receipt_id")
);

-- CreateTable
CREATE TABLE "proxy_budgets" (
    "budget_kind" TEXT NOT NULL,
    "budget_ref" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "spent" BIGINT NOT NULL DEFAULT 0,
    "calls" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "proxy_budgets_pkey" PRIMARY KEY ("budget_kind","budget_ref")
);

-- CreateTable
CREATE TABLE "proxy_calls" (
    "call_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "upstream" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "cost" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "request_sha256" TEXT NOT NULL,
    "response_sha256" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "budget_kind" TEXT NOT NULL,
    "budget_ref" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "fingerprint" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "proxy_calls_pkey" PRIMARY KEY ("call_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "meter_epoch_tables_epoch_key" ON "meter_epoch_tables"("epoch");

-- CreateIndex
CREATE INDEX "meter_epoch_prices_meter_idx" ON "meter_epoch_prices"("meter", "effective_from");

-- CreateIndex
CREATE INDEX "meter_events_subject_period_idx" ON "meter_events"("subject_agent_id", "period", "occurred_at", "object_id");

-- CreateIndex
CREATE INDEX "billing_projections_agent_period_idx" ON "billing_projections"("agent_id", "period");

-- CreateIndex
CREATE UNIQUE INDEX "period_receipts_agent_period_key" ON "period_receipts"("agent_id", "period");

-- CreateIndex
CREATE INDEX "proxy_calls_run_idx" ON "proxy_calls"("agent_id", "run_id", "recorded_at", "call_id");

-- CreateIndex
CREATE INDEX "proxy_calls_recorded_idx" ON "proxy_calls"("recorded_at");

-- CreateIndex
CREATE UNIQUE INDEX "proxy_calls_agent_idempotency_key" ON "proxy_calls"("agent_id", "idempotency_key");



-- Hand-written below (README.md "Metering, billing, gateway proxy").
ALTER TABLE "meter_epoch_tables" ADD CONSTRAINT "meter_epoch_tables_range" CHECK ("effective_from" < "effective_to");
ALTER TABLE "meter_epoch_prices" ADD CONSTRAINT "meter_epoch_prices_range" CHECK ("effective_from" < "effective_to");
ALTER TABLE "meter_epoch_prices" ADD CONSTRAINT "meter_epoch_prices_price" CHECK ("unit_price" >= 0);
ALTER TABLE "meter_events" ADD CONSTRAINT "meter_events_quantity" CHECK ("quantity" > 0 AND "quantity" <= 1000000000000);
ALTER TABLE "meter_events" ADD CONSTRAINT "meter_events_period" CHECK ("period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$');
ALTER TABLE "billing_projections" ADD CONSTRAINT "billing_projections_status" CHECK ("status" IN ('draft', 'attached', 'superseded', 'emitted'));
ALTER TABLE "period_receipts" ADD CONSTRAINT "period_receipts_status" CHECK ("status" IN ('draft', 'emitted'));
-- Emitted ⇔ signed and stored in the registry.
ALTER TABLE "period_receipts" ADD CONSTRAINT "period_receipts_emitted_shape"
  CHECK (("status" = 'emitted') = ("object_id" IS NOT NULL AND "payload_json" IS NOT NULL AND "signature" IS NOT NULL AND "emitted_at" IS NOT NULL));
ALTER TABLE "proxy_budgets" ADD CONSTRAINT "proxy_budgets_kind" CHECK ("budget_kind" IN ('hold', 'mandate'));
ALTER TABLE "proxy_budgets" ADD CONSTRAINT "proxy_budgets_spent" CHECK ("spent" >= 0 AND "calls" >= 0);
ALTER TABLE "proxy_calls" ADD CONSTRAINT "proxy_calls_kind" CHECK ("budget_kind" IN ('hold', 'mandate'));
ALTER TABLE "proxy_calls" ADD CONSTRAINT "proxy_calls_cost" CHECK ("cost" >= 0);
ALTER TABLE "proxy_calls" ADD CONSTRAINT "proxy_calls_status" CHECK ("status" BETWEEN 100 AND 599 AND "latency_ms" >= 0);
