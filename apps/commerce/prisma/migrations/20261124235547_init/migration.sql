-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "mandates" (
    "mandate_id" TEXT NOT NULL,
    "signer_agent_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "scope_merchants" TEXT[],
    "scope_categories" TEXT[],
    "scope_skus" TEXT[],
    "per_transaction" BIGINT NOT NULL,
    "total_limit" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "signature" TEXT NOT NULL,
    "signed_payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "spent" BIGINT NOT NULL DEFAULT 0,
    "reserved" BIGINT NOT NULL DEFAULT 0,
    "autonomy_mode" TEXT NOT NULL,
    "step_up_amount" BIGINT,
    "step_up_currency" TEXT,
    "approval_for_new_merchants" BOOLEAN NOT NULL DEFAULT false,
    "daily_limit" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mandates_pkey" PRIMARY KEY ("mandate_id")
);

-- CreateTable
CREATE TABLE "checkout_sessions" (
    "commerce_session_id" TEXT NOT NULL,
    "buyer_agent_id" TEXT NOT NULL,
    "mandate_id" TEXT NOT NULL,
    "merchant_domain" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "approval" TEXT NOT NULL DEFAULT 'not_required',
    "approval_reason" TEXT,
    "approved_total" BIGINT,
    "approver_id" TEXT,
    "approval_signature" TEXT,
    "merchant_checkout_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "total" BIGINT NOT NULL,
    "list_total" BIGINT NOT NULL,
    "discount_codes" TEXT[],
    "line_items" JSONB NOT NULL,
    "buyer" JSONB,
    "context" JSONB,
    "merchant_checkout" JSONB NOT NULL,
    "payment_stage" TEXT NOT NULL DEFAULT 'none',
    "reserved_amount" BIGINT,
    "hold_id" TEXT,
    "deal_id" TEXT,
    "receipt_id" TEXT,
    "order_id" TEXT,
    "continue_url" TEXT,
    "failure_reason" TEXT,
    "intent_id" TEXT,
    "evidence_head" TEXT NOT NULL,
    "evidence_seq" INTEGER NOT NULL DEFAULT 0,
    "payment_updated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY ("commerce_session_id")
);

-- CreateTable
CREATE TABLE "evidence" (
    "evidence_id" TEXT NOT NULL,
    "commerce_session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "content_sha256" TEXT NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "schema_result" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evidence_pkey" PRIMARY KEY ("evidence_id")
);

-- CreateTable
CREATE TABLE "purchases" (
    "deal_id" TEXT NOT NULL,
    "commerce_session_id" TEXT NOT NULL,
    "buyer_agent_id" TEXT NOT NULL,
    "mandate_id" TEXT NOT NULL,
    "merchant_domain" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "list_amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "receipt_id" TEXT NOT NULL,
    "receipt" JSONB NOT NULL,
    "order_id" TEXT,
    "completed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchases_pkey" PRIMARY KEY ("deal_id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "scope" TEXT NOT NULL,
    "rpc" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("scope","rpc","key")
);

-- CreateTable
CREATE TABLE "order_webhooks" (
    "merchant_domain" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "commerce_session_id" TEXT,
    "order_id" TEXT NOT NULL,
    "evidence_id" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_webhooks_pkey" PRIMARY KEY ("merchant_domain","webhook_id")
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
CREATE INDEX "mandates_signer_agent_id_created_at_mandate_id_idx" ON "mandates"("signer_agent_id", "created_at", "mandate_id");

-- CreateIndex
CREATE INDEX "mandates_agent_id_created_at_mandate_id_idx" ON "mandates"("agent_id", "created_at", "mandate_id");

-- CreateIndex
CREATE INDEX "checkout_sessions_buyer_agent_id_created_at_idx" ON "checkout_sessions"("buyer_agent_id", "created_at");

-- CreateIndex
CREATE INDEX "checkout_sessions_mandate_id_idx" ON "checkout_sessions"("mandate_id");

-- CreateIndex
CREATE INDEX "checkout_sessions_merchant_domain_merchant_checkout_id_idx" ON "checkout_sessions"("merchant_domain", "merchant_checkout_id");

-- CreateIndex
CREATE INDEX "checkout_sessions_payment_stage_payment_updated_at_idx" ON "checkout_sessions"("payment_stage", "payment_updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_deal_id_key" ON "checkout_sessions"("deal_id");

-- CreateIndex
CREATE UNIQUE INDEX "evidence_commerce_session_id_seq_key" ON "evidence"("commerce_session_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "purchases_commerce_session_id_key" ON "purchases"("commerce_session_id");

-- CreateIndex
CREATE INDEX "purchases_buyer_agent_id_merchant_domain_idx" ON "purchases"("buyer_agent_id", "merchant_domain");

-- CreateIndex
CREATE INDEX "purchases_mandate_id_completed_at_idx" ON "purchases"("mandate_id", "completed_at");

-- CreateIndex
CREATE INDEX "outbox_events_relay_idx" ON "outbox_events"("published_at", "created_at", "id");

