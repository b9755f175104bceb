-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "account_kind" AS ENUM ('available', 'held', 'faucet', 'deposits_clearing', 'withdrawals_clearing', 'fees');

-- CreateEnum
CREATE TYPE "hold_status" AS ENUM ('active', 'released', 'consumed', 'expired');

-- CreateEnum
CREATE TYPE "deposit_status" AS ENUM ('pending', 'confirmed', 'expired');

-- CreateEnum
CREATE TYPE "deposit_method" AS ENUM ('sandbox', 'bank', 'crypto');

-- CreateEnum
CREATE TYPE "payout_destination_type" AS ENUM ('bank_account', 'crypto_address', 'sandbox');

-- CreateEnum
CREATE TYPE "withdrawal_status" AS ENUM ('requested', 'processing', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "receipt_kind" AS ENUM ('settlement', 'refund');

-- CreateEnum
CREATE TYPE "idempotency_outcome" AS ENUM ('succeeded', 'failed');

-- CreateTable
CREATE TABLE "accounts" (
    "account_id" TEXT NOT NULL,
    "owner_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "kind" "account_kind" NOT NULL,
    "balance" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "journal_entries" (
    "entry_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "idempotency_scope" TEXT,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "journal_entries_pkey" PRIMARY KEY ("entry_id")
);

-- CreateTable
CREATE TABLE "postings" (
    "entry_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "postings_pkey" PRIMARY KEY ("entry_id","account_id")
);

-- CreateTable
CREATE TABLE "transfers" (
    "transfer_id" TEXT NOT NULL,
    "from_agent_id" TEXT NOT NULL,
    "to_agent_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "memo" TEXT,
    "journal_entry_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "transfers_pkey" PRIMARY KEY ("transfer_id")
);

-- CreateTable
CREATE TABLE "faucet_grants" (
    "faucet_grant_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "journal_entry_id" TEXT NOT NULL,
    "granted_today" BIGINT NOT NULL,
    "remaining_today" BIGINT NOT NULL,
    "resets_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "faucet_grants_pkey" PRIMARY KEY ("faucet_grant_id")
);

-- CreateTable
CREATE TABLE "daily_counters" (
    "counter_key" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "used" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "daily_counters_pkey" PRIMARY KEY ("counter_key","day")
);

-- CreateTable
CREATE TABLE "holds" (
    "hold_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "hold_status" NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "reference" TEXT,
    "consumed_amount" BIGINT,
    "released_amount" BIGINT,
    "consumed_to_agent_id" TEXT,
    "journal_entry_ids" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "holds_pkey" PRIMARY KEY ("hold_id")
);

-- CreateTable
CREATE TABLE "deposits" (
    "deposit_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "method" "deposit_method" NOT NULL,
    "reference" TEXT,
    "status" "deposit_status" NOT NULL,
    "journal_entry_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "deposits_pkey" PRIMARY KEY ("deposit_id")
);

-- CreateTable
CREATE TABLE "payout_destinations" (
    "payout_destination_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "type" "payout_destination_type" NOT NULL,
    "details" JSONB NOT NULL,
    "label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payout_destinations_pkey" PRIMARY KEY ("payout_destination_id")
);

-- CreateTable
CREATE TABLE "withdrawals" (
    "withdrawal_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "payout_destination_id" TEXT NOT NULL,
    "status" "withdrawal_status" NOT NULL,
    "failure_reason" TEXT,
    "journal_entry_ids" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "withdrawals_pkey" PRIMARY KEY ("withdrawal_id")
);

-- CreateTable
CREATE TABLE "receipts" (
    "receipt_id" TEXT NOT NULL,
    "kind" "receipt_kind" NOT NULL,
    "contract_id" TEXT NOT NULL,
    "hold_id" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "payee" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "refunded_amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "journal_entry_ids" TEXT[],
    "settled_at" TIMESTAMPTZ(3) NOT NULL,
    "signature" TEXT NOT NULL,
    "signer_public_key" TEXT NOT NULL,

    CONSTRAINT "receipts_pkey" PRIMARY KEY ("receipt_id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "outcome" "idempotency_outcome" NOT NULL,
    "response" JSONB,
    "error" JSONB,
    "journal_entry_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("scope","key")
);

-- CreateTable
CREATE TABLE "controls" (
    "id" INTEGER NOT NULL,
    "read_only" BOOLEAN NOT NULL DEFAULT false,
    "kill_switches" TEXT[],
    "reason" TEXT NOT NULL DEFAULT '',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "controls_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "accounts_owner_idx" ON "accounts"("owner_id");

-- CreateIndex
CREATE INDEX "journal_entries_idempotency_idx" ON "journal_entries"("idempotency_scope", "idempotency_key");

-- CreateIndex
CREATE INDEX "deposits_agent_created_idx" ON "deposits"("agent_id", "created_at" DESC, "deposit_id" DESC);

-- CreateIndex
CREATE INDEX "payout_destinations_agent_created_idx" ON "payout_destinations"("agent_id", "created_at" DESC, "payout_destination_id" DESC);

-- CreateIndex
CREATE INDEX "withdrawals_agent_created_idx" ON "withdrawals"("agent_id", "created_at" DESC, "withdrawal_id" DESC);

-- CreateIndex
CREATE INDEX "receipts_contract_settled_idx" ON "receipts"("contract_id", "settled_at" DESC);

-- CreateIndex
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys"("expires_at");

-- CreateIndex
CREATE INDEX "outbox_events_relay_idx" ON "outbox_events"("published_at", "created_at", "id");

-- AddForeignKey
ALTER TABLE "postings" ADD CONSTRAINT "postings_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "journal_entries"("entry_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "postings" ADD CONSTRAINT "postings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE RESTRICT ON UPDATE CASCADE;

