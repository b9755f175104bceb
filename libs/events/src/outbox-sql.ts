/**
 * DDL of the outbox and processed-event tables, identical to what `prisma migrate diff` emits
 * for the models in libs/events/README.md (every service declares them in its own schema).
 * Used directly by tests and by services that manage SQL by hand.
 */
export const OUTBOX_SQL = `
CREATE TABLE IF NOT EXISTS "outbox_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

CREATE TABLE IF NOT EXISTS "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

CREATE INDEX IF NOT EXISTS "outbox_events_relay_idx" ON "outbox_events"("published_at", "created_at", "id");
`;
