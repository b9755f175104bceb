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

CREATE INDEX IF NOT EXISTS "processed_events_processed_at_idx" ON "processed_events"("processed_at");
`;

/**
 * The Prisma models every service's schema.prisma declares for the tables above, verbatim (a
 * test in libs/events fails when a service's copy or its first migration drifts from this and
 * OUTBOX_SQL). docs/adding-a-service.md step 3 pastes it.
 */
export const OUTBOX_PRISMA_MODELS = `// Transactional outbox and consumer bookkeeping (libs/events; DDL identical to OUTBOX_SQL).
model OutboxEvent {
  id          String    @id
  type        String
  payload     Json
  createdAt   DateTime  @default(now()) @map("created_at") @db.Timestamptz(3)
  publishedAt DateTime? @map("published_at") @db.Timestamptz(3)

  @@index([publishedAt, createdAt, id], map: "outbox_events_relay_idx")
  @@map("outbox_events")
}

model ProcessedEvent {
  consumer    String
  eventId     String   @map("event_id")
  processedAt DateTime @default(now()) @map("processed_at") @db.Timestamptz(3)

  @@id([consumer, eventId])
  @@index([processedAt], map: "processed_events_processed_at_idx")
  @@map("processed_events")
}
`;
