-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "identity_level" AS ENUM ('SANDBOX_UNVERIFIED', 'MAINNET_BASIC', 'MAINNET_ATTESTED', 'MAINNET_VERIFIED', 'MAINNET_INSTITUTIONAL');

-- CreateEnum
CREATE TYPE "agent_status" AS ENUM ('active', 'frozen');

-- CreateEnum
CREATE TYPE "key_status" AS ENUM ('active', 'revoked');

-- CreateTable
CREATE TABLE "agents" (
    "agent_id" TEXT NOT NULL,
    "primary_pubkey" TEXT NOT NULL,
    "identity_level" "identity_level" NOT NULL,
    "status" "agent_status" NOT NULL DEFAULT 'active',
    "frozen_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agents_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "agent_keys" (
    "agent_id" TEXT NOT NULL,
    "pubkey" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "is_primary" BOOLEAN NOT NULL,
    "status" "key_status" NOT NULL DEFAULT 'active',
    "added_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_reason" TEXT,

    CONSTRAINT "agent_keys_pkey" PRIMARY KEY ("agent_id","pubkey")
);

-- CreateTable
CREATE TABLE "identity_transitions" (
    "transition_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "from_level" "identity_level" NOT NULL,
    "to_level" "identity_level" NOT NULL,
    "reason" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "identity_transitions_pkey" PRIMARY KEY ("transition_id")
);

-- CreateTable
CREATE TABLE "proof_nonces" (
    "nonce" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "proof_nonces_pkey" PRIMARY KEY ("nonce")
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
CREATE INDEX "agents_created_at_agent_id_idx" ON "agents"("created_at" DESC, "agent_id" DESC);

-- CreateIndex
CREATE INDEX "identity_transitions_agent_created_idx" ON "identity_transitions"("agent_id", "created_at" DESC, "transition_id" DESC);

-- CreateIndex
CREATE INDEX "outbox_events_relay_idx" ON "outbox_events"("published_at", "created_at", "id");

-- AddForeignKey
ALTER TABLE "agent_keys" ADD CONSTRAINT "agent_keys_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("agent_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "identity_transitions" ADD CONSTRAINT "identity_transitions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("agent_id") ON DELETE CASCADE ON UPDATE CASCADE;

