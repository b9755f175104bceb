-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "objects" (
    "object_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload_json" TEXT NOT NULL,
    "signer_agent_id" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "signer_public_key" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "parties" TEXT[],
    "tags" TEXT[],
    "subject_ref" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "objects_pkey" PRIMARY KEY ("object_id")
);

-- CreateTable
CREATE TABLE "artifacts" (
    "artifact_ref" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL,
    "media_type" TEXT NOT NULL,
    "contract_id" TEXT,
    "access" TEXT NOT NULL,
    "parties" TEXT[],
    "envelope" JSONB,
    "status" TEXT NOT NULL,
    "removed_reason" TEXT,
    "uploaded_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "artifacts_pkey" PRIMARY KEY ("artifact_ref")
);

-- CreateTable
CREATE TABLE "artifact_acks" (
    "ack_id" TEXT NOT NULL,
    "artifact_ref" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "artifact_acks_pkey" PRIMARY KEY ("ack_id")
);

-- CreateTable
CREATE TABLE "delivery_receipts" (
    "delivery_receipt_id" TEXT NOT NULL,
    "artifact_ref" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL,
    "delivered_at" TIMESTAMPTZ(3) NOT NULL,
    "signature" TEXT NOT NULL,
    "signer_public_key" TEXT NOT NULL,

    CONSTRAINT "delivery_receipts_pkey" PRIMARY KEY ("delivery_receipt_id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "artifact_ref" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "objects_created_idx" ON "objects"("created_at", "object_id");

-- CreateIndex
CREATE INDEX "objects_type_idx" ON "objects"("type", "created_at", "object_id");

-- CreateIndex
CREATE INDEX "objects_signer_idx" ON "objects"("signer_agent_id", "created_at", "object_id");

-- CreateIndex
CREATE INDEX "objects_subject_idx" ON "objects"("subject_ref", "created_at", "object_id");

-- CreateIndex
CREATE INDEX "objects_tags_idx" ON "objects" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "artifacts_contract_idx" ON "artifacts"("contract_id", "created_at", "artifact_ref");

-- CreateIndex
CREATE INDEX "artifacts_created_idx" ON "artifacts"("created_at", "artifact_ref");

-- CreateIndex
CREATE INDEX "artifact_acks_artifact_idx" ON "artifact_acks"("artifact_ref", "created_at", "ack_id");

-- CreateIndex
CREATE UNIQUE INDEX "artifact_acks_artifact_agent_key" ON "artifact_acks"("artifact_ref", "agent_id");

-- CreateIndex
CREATE INDEX "delivery_receipts_artifact_idx" ON "delivery_receipts"("artifact_ref", "delivered_at", "delivery_receipt_id");

-- CreateIndex
CREATE INDEX "audit_log_artifact_idx" ON "audit_log"("artifact_ref", "at");

-- CreateIndex
CREATE INDEX "outbox_events_relay_idx" ON "outbox_events"("published_at", "created_at", "id");

