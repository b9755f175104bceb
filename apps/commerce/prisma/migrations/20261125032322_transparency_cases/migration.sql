-- AlterTable
ALTER TABLE "purchases" ADD COLUMN     "refunded" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "intents" (
    "intent_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "merchants" TEXT[],
    "skus" TEXT[],
    "budget" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "requires_refundability" BOOLEAN NOT NULL DEFAULT false,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "intents_pkey" PRIMARY KEY ("intent_id")
);

-- CreateTable
CREATE TABLE "feedback" (
    "feedback_id" TEXT NOT NULL,
    "deal_id" TEXT NOT NULL,
    "buyer_agent_id" TEXT NOT NULL,
    "merchant_domain" TEXT NOT NULL,
    "rating" INTEGER NOT NULL,
    "comment" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feedback_pkey" PRIMARY KEY ("feedback_id")
);

-- CreateTable
CREATE TABLE "session_lifecycle" (
    "commerce_session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "approval" TEXT NOT NULL,
    "payment_stage" TEXT NOT NULL,
    "total" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT,
    "actor" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_lifecycle_pkey" PRIMARY KEY ("commerce_session_id","seq")
);

-- CreateTable
CREATE TABLE "purchase_cases" (
    "case_id" TEXT NOT NULL,
    "deal_id" TEXT NOT NULL,
    "buyer_agent_id" TEXT NOT NULL,
    "merchant_domain" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "evidence_refs" TEXT[],
    "refund_state" TEXT NOT NULL DEFAULT 'none',
    "refund_receipt_id" TEXT,
    "refund_receipt" JSONB,
    "refunded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchase_cases_pkey" PRIMARY KEY ("case_id")
);

-- CreateTable
CREATE TABLE "case_events" (
    "event_id" TEXT NOT NULL,
    "case_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "from_status" TEXT,
    "to_status" TEXT,
    "actor" TEXT NOT NULL,
    "note" TEXT,
    "evidence_refs" TEXT[],
    "amount" BIGINT,
    "receipt_id" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "case_events_pkey" PRIMARY KEY ("event_id")
);

-- CreateIndex
CREATE INDEX "intents_agent_id_created_at_idx" ON "intents"("agent_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "feedback_deal_id_buyer_agent_id_key" ON "feedback"("deal_id", "buyer_agent_id");

-- CreateIndex
CREATE INDEX "session_lifecycle_kind_at_idx" ON "session_lifecycle"("kind", "at");

-- CreateIndex
CREATE INDEX "purchase_cases_deal_id_idx" ON "purchase_cases"("deal_id");

-- CreateIndex
CREATE INDEX "purchase_cases_created_at_idx" ON "purchase_cases"("created_at");

-- CreateIndex
CREATE INDEX "purchase_cases_refund_state_idx" ON "purchase_cases"("refund_state");

-- CreateIndex
CREATE UNIQUE INDEX "case_events_case_id_seq_key" ON "case_events"("case_id", "seq");

-- CreateIndex
CREATE INDEX "purchases_completed_at_idx" ON "purchases"("completed_at");


-- Invariants the database keeps whatever the code does (hand-added; schema.prisma cannot express CHECKs).
-- Refunds of a purchase never add up to more than it paid.
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_refunded_within_amount" CHECK ("refunded" >= 0 AND "refunded" <= "amount");
ALTER TABLE "intents" ADD CONSTRAINT "intents_budget_positive" CHECK ("budget" > 0);
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_rating_range" CHECK ("rating" BETWEEN 1 AND 5);
ALTER TABLE "purchase_cases" ADD CONSTRAINT "purchase_cases_type" CHECK ("type" IN ('return', 'refund', 'chargeback'));
ALTER TABLE "purchase_cases" ADD CONSTRAINT "purchase_cases_status" CHECK ("status" IN ('open', 'under_review', 'approved', 'denied', 'closed'));
ALTER TABLE "purchase_cases" ADD CONSTRAINT "purchase_cases_refund_state" CHECK ("refund_state" IN ('none', 'pending', 'credited'));
ALTER TABLE "purchase_cases" ADD CONSTRAINT "purchase_cases_amount_positive" CHECK ("amount" > 0);
-- A credit is only ever for an approved (or since closed) case.
ALTER TABLE "purchase_cases" ADD CONSTRAINT "purchase_cases_refund_when_approved" CHECK ("refund_state" = 'none' OR "status" IN ('approved', 'closed'));
