-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "events" (
    "seq" BIGSERIAL NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "actor" TEXT,
    "data" JSONB NOT NULL,
    "trace_id" TEXT,
    "contract_id" TEXT,
    "listing_id" TEXT,
    "public_data" JSONB,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "contract_facts" (
    "contract_id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "buyer_private" BOOLEAN NOT NULL,
    "buyer_alias" TEXT,
    "seller_id" TEXT,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "budget" BIGINT NOT NULL,
    "price" BIGINT,
    "tags" TEXT[],
    "listing_id" TEXT,
    "workflow_run_id" TEXT,
    "sandbox" BOOLEAN NOT NULL,
    "ever_disputed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "awarded_at" TIMESTAMPTZ(3),
    "settled_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contract_facts_pkey" PRIMARY KEY ("contract_id")
);

-- CreateTable
CREATE TABLE "checkout_facts" (
    "commerce_session_id" TEXT NOT NULL,
    "buyer_agent_id" TEXT NOT NULL,
    "merchant_domain" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "total" BIGINT NOT NULL,
    "origin_contract_id" TEXT,
    "origin_workflow_run_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "checkout_facts_pkey" PRIMARY KEY ("commerce_session_id")
);

-- CreateTable
CREATE TABLE "purchase_facts" (
    "deal_id" TEXT NOT NULL,
    "commerce_session_id" TEXT NOT NULL,
    "buyer_agent_id" TEXT NOT NULL,
    "merchant_domain" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "origin_contract_id" TEXT,
    "origin_workflow_run_id" TEXT,
    "completed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "purchase_facts_pkey" PRIMARY KEY ("deal_id")
);

-- CreateTable
CREATE TABLE "category_objects" (
    "tag" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "object_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "category_objects_pkey" PRIMARY KEY ("tag","kind","object_id")
);

-- CreateTable
CREATE TABLE "matching_signals" (
    "signal_id" TEXT NOT NULL,
    "signal" TEXT NOT NULL,
    "recorded_by" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "listing_id" TEXT,
    "request_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "matching_signals_pkey" PRIMARY KEY ("signal_id")
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
CREATE UNIQUE INDEX "events_event_id_key" ON "events"("event_id");

-- CreateIndex
CREATE INDEX "events_type_idx" ON "events"("type", "seq");

-- CreateIndex
CREATE INDEX "events_contract_idx" ON "events"("contract_id", "occurred_at", "seq");

-- CreateIndex
CREATE INDEX "events_listing_idx" ON "events"("listing_id", "seq");

-- CreateIndex
CREATE INDEX "events_occurred_idx" ON "events"("occurred_at", "seq");

-- CreateIndex
CREATE INDEX "events_subject_idx" ON "events"("subject_id");

-- CreateIndex
CREATE INDEX "contract_facts_ended_idx" ON "contract_facts"("ended_at");

-- CreateIndex
CREATE INDEX "contract_facts_buyer_idx" ON "contract_facts"("buyer_id");

-- CreateIndex
CREATE INDEX "contract_facts_seller_idx" ON "contract_facts"("seller_id");

-- CreateIndex
CREATE INDEX "checkout_facts_ended_idx" ON "checkout_facts"("ended_at");

-- CreateIndex
CREATE INDEX "checkout_facts_merchant_idx" ON "checkout_facts"("merchant_domain");

-- CreateIndex
CREATE INDEX "checkout_facts_buyer_idx" ON "checkout_facts"("buyer_agent_id");

-- CreateIndex
CREATE INDEX "purchase_facts_completed_idx" ON "purchase_facts"("completed_at");

-- CreateIndex
CREATE INDEX "matching_signals_contract_idx" ON "matching_signals"("contract_id");

-- CreateIndex
CREATE INDEX "matching_signals_seller_idx" ON "matching_signals"("seller_id");

-- CreateIndex
CREATE UNIQUE INDEX "matching_signals_dedup_key" ON "matching_signals"("recorded_by", "signal", "contract_id", "seller_id", "request_id");

-- CreateIndex
CREATE INDEX "outbox_events_relay_idx" ON "outbox_events"("published_at", "created_at", "id");


-- Hand-written rules (wire names and amounts), as the other services keep them.
ALTER TABLE "matching_signals" ADD CONSTRAINT "matching_signals_signal_check" CHECK ("signal" IN ('impression', 'click', 'shortlist', 'award'));
ALTER TABLE "category_objects" ADD CONSTRAINT "category_objects_kind_check" CHECK ("kind" IN ('contract', 'listing', 'thread'));
ALTER TABLE "contract_facts" ADD CONSTRAINT "contract_facts_amounts_check" CHECK ("budget" > 0 AND ("price" IS NULL OR "price" >= 0));
ALTER TABLE "checkout_facts" ADD CONSTRAINT "checkout_facts_total_check" CHECK ("total" >= 0);
ALTER TABLE "purchase_facts" ADD CONSTRAINT "purchase_facts_amount_check" CHECK ("amount" >= 0);
