-- processed_events(processed_at) serves the pruning of old records (libs/service-host). Built in
-- the migration's transaction: consumers' inserts wait while it builds, short on today's tables.
-- CreateIndex
CREATE INDEX "processed_events_processed_at_idx" ON "processed_events"("processed_at");

