-- Written by hand (what `npm run db:diff` would emit for the schema change, plus these comments).
-- A post or delivery takes the contract of the FIRST event with the subject it names
-- (`ORDER BY seq LIMIT 1` one by one, `DISTINCT ON (subject_id) … ORDER BY subject_id, seq` per
-- batch): on (subject_id) alone every row of the subject was fetched and sorted; (subject_id, seq)
-- reads them in order. It serves equality on subject_id as well, and nothing else queries
-- subject_id, so the single-column index goes. Plain CREATE INDEX: the runner applies each
-- migration in a transaction, where CONCURRENTLY is not allowed; it blocks writes to events
-- while it builds.

-- DropIndex
DROP INDEX "events_subject_idx";

-- CreateIndex
CREATE INDEX "events_subject_seq_idx" ON "events"("subject_id", "seq");
