-- AlterTable
ALTER TABLE "holds" ADD COLUMN     "controller" TEXT NOT NULL DEFAULT 'agent';

-- Hand-written below (issue 12 finding 2; README.md "Holds and who controls them").
-- "agent" or a service name; the wallet routes move only "agent" holds.
ALTER TABLE "holds" ADD CONSTRAINT "holds_controller_name" CHECK ("controller" ~ '^[a-z][a-z0-9_]{0,31}$');

-- Backfill: the market's escrow made before this column existed. The market's CreateHold uses the
-- contract id as reference and the saga key "mkt:<contract_id>:award:<step_id>" as idempotency
-- key (apps/market/src/domain/saga.ts walletKey), scoped to the buyer; a hold a receipt names went
-- through the market's Settle/Refund. Every other hold was made through the wallet routes.
UPDATE "holds" h SET "controller" = 'market'
 WHERE EXISTS (SELECT 1 FROM "receipts" r WHERE r."hold_id" = h."hold_id")
    OR (h."reference" IS NOT NULL AND EXISTS (
          SELECT 1 FROM "journal_entries" j
           WHERE j."entry_id" = h."journal_entry_ids"[1]
             AND j."kind" = 'hold_create'
             AND j."idempotency_scope" = h."agent_id"
             AND starts_with(j."idempotency_key", 'mkt:' || h."reference" || ':award:')));
