-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "workflow_runs" (
    "workflow_run_id" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "owner_agent_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "input_refs" TEXT[],
    "current_stage" INTEGER NOT NULL DEFAULT 0,
    "max_shard_attempts" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "budget" BIGINT NOT NULL,
    "spent" BIGINT NOT NULL DEFAULT 0,
    "committed" BIGINT NOT NULL DEFAULT 0,
    "failure_reason" TEXT,
    "idempotency_scope" TEXT,
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "workflow_runs_pkey" PRIMARY KEY ("workflow_run_id")
);

-- CreateTable
CREATE TABLE "workflow_stages" (
    "workflow_run_id" TEXT NOT NULL,
    "stage_index" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "shards" INTEGER NOT NULL,
    "contract_spec" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "settled_shards" INTEGER NOT NULL DEFAULT 0,
    "input_refs" TEXT[],
    "output_refs" TEXT[],
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "workflow_stages_pkey" PRIMARY KEY ("workflow_run_id","stage_index")
);

-- CreateTable
CREATE TABLE "workflow_tasks" (
    "task_id" TEXT NOT NULL,
    "workflow_run_id" TEXT NOT NULL,
    "stage_index" INTEGER NOT NULL,
    "stage_name" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "contract_id" TEXT,
    "contract_status" TEXT,
    "seller_id" TEXT,
    "price" BIGINT,
    "currency" TEXT NOT NULL,
    "input_refs" TEXT[],
    "result_refs" TEXT[],
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "workflow_tasks_pkey" PRIMARY KEY ("task_id")
);

-- CreateTable
CREATE TABLE "task_events" (
    "seq" BIGSERIAL NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "workflow_run_id" TEXT NOT NULL,
    "owner_agent_id" TEXT NOT NULL,
    "stage" TEXT,
    "shard" INTEGER,
    "task_id" TEXT,
    "contract_id" TEXT,
    "data" JSONB NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_events_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "task_subscriptions" (
    "subscription_id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "filter_run_id" TEXT,
    "filter_stage" TEXT,
    "event_types" TEXT[],
    "lease_seconds" INTEGER NOT NULL,
    "ack_floor" BIGINT NOT NULL DEFAULT 0,
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_subscriptions_pkey" PRIMARY KEY ("subscription_id")
);

-- CreateTable
CREATE TABLE "subscription_deliveries" (
    "subscription_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "delivery_count" INTEGER NOT NULL DEFAULT 1,
    "leased_until" TIMESTAMPTZ(3) NOT NULL,
    "acked_at" TIMESTAMPTZ(3),

    CONSTRAINT "subscription_deliveries_pkey" PRIMARY KEY ("subscription_id","seq")
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
CREATE INDEX "workflow_runs_template_idx" ON "workflow_runs"("template", "created_at", "workflow_run_id");

-- CreateIndex
CREATE INDEX "workflow_runs_owner_idx" ON "workflow_runs"("owner_agent_id", "created_at", "workflow_run_id");

-- CreateIndex
CREATE INDEX "workflow_runs_created_idx" ON "workflow_runs"("created_at", "workflow_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "workflow_runs_idempotency_key" ON "workflow_runs"("idempotency_scope", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "workflow_stages_name_key" ON "workflow_stages"("workflow_run_id", "name");

-- CreateIndex
CREATE INDEX "workflow_tasks_run_idx" ON "workflow_tasks"("workflow_run_id", "stage_index", "shard", "created_at", "task_id");

-- CreateIndex
CREATE INDEX "workflow_tasks_status_idx" ON "workflow_tasks"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "workflow_tasks_attempt_key" ON "workflow_tasks"("workflow_run_id", "stage_index", "shard", "attempt");

-- CreateIndex
CREATE UNIQUE INDEX "workflow_tasks_contract_key" ON "workflow_tasks"("contract_id");

-- CreateIndex
CREATE UNIQUE INDEX "task_events_event_id_key" ON "task_events"("event_id");

-- CreateIndex
CREATE INDEX "task_events_run_idx" ON "task_events"("workflow_run_id", "seq");

-- CreateIndex
CREATE INDEX "task_events_owner_idx" ON "task_events"("owner_agent_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "task_subscriptions_idempotency_key" ON "task_subscriptions"("owner", "idempotency_key");

-- CreateIndex
CREATE INDEX "outbox_events_relay_idx" ON "outbox_events"("published_at", "created_at", "id");


-- Hand-written: the wire names and bounds the service relies on.
ALTER TABLE "workflow_runs" ADD CONSTRAINT "workflow_runs_status_check" CHECK ("status" IN ('pending', 'running', 'completed', 'failed', 'cancelled'));
ALTER TABLE "workflow_runs" ADD CONSTRAINT "workflow_runs_money_check" CHECK ("budget" > 0 AND "spent" >= 0 AND "committed" >= 0 AND "spent" + "committed" <= "budget");
ALTER TABLE "workflow_runs" ADD CONSTRAINT "workflow_runs_attempts_check" CHECK ("max_shard_attempts" BETWEEN 1 AND 10);
ALTER TABLE "workflow_stages" ADD CONSTRAINT "workflow_stages_status_check" CHECK ("status" IN ('pending', 'running', 'completed', 'failed', 'cancelled'));
ALTER TABLE "workflow_stages" ADD CONSTRAINT "workflow_stages_shards_check" CHECK ("shards" BETWEEN 1 AND 100 AND "settled_shards" BETWEEN 0 AND "shards");
ALTER TABLE "workflow_tasks" ADD CONSTRAINT "workflow_tasks_status_check" CHECK ("status" IN ('posting', 'open', 'awarded', 'delivered', 'disputed', 'settled', 'failed', 'cancelled'));
ALTER TABLE "workflow_tasks" ADD CONSTRAINT "workflow_tasks_price_check" CHECK ("price" IS NULL OR "price" > 0);
ALTER TABLE "task_subscriptions" ADD CONSTRAINT "task_subscriptions_lease_check" CHECK ("lease_seconds" BETWEEN 5 AND 3600 AND "ack_floor" >= 0);
ALTER TABLE "subscription_deliveries" ADD CONSTRAINT "subscription_deliveries_count_check" CHECK ("delivery_count" >= 1);
