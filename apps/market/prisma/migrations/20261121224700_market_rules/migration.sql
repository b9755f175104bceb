-- Hand-written: what schema.prisma cannot express. schema.snapshot.prisma is unchanged from the
-- previous migration, so `npm run db:diff` keeps diffing from the datamodel these tables match.

-- One submitted offer per seller per contract (a second one is 409 offer_exists).
CREATE UNIQUE INDEX "offers_one_submitted_per_seller" ON "offers" ("contract_id", "seller_id") WHERE "status" = 'submitted';
-- One award in progress per contract (a second award attempt waits for the first to finish).
CREATE UNIQUE INDEX "saga_steps_one_pending_award" ON "saga_steps" ("contract_id") WHERE "kind" = 'award' AND "status" = 'pending';
-- One open dispute per contract.
CREATE UNIQUE INDEX "disputes_one_open_per_contract" ON "disputes" ("contract_id") WHERE "status" = 'open';

-- Money is positive; states are the known ones.
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_budget_positive" CHECK ("budget_amount" > 0);
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_price_positive" CHECK ("price_amount" IS NULL OR "price_amount" > 0);
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_status_known" CHECK ("status" IN
  ('open', 'awarded', 'delivered', 'accepted', 'settled', 'disputed', 'refunded', 'split', 'cancelled', 'expired', 'corrected'));
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_escrow_known" CHECK ("escrow_status" IN ('none', 'held', 'settled', 'released'));
ALTER TABLE "listings" ADD CONSTRAINT "listings_price_positive" CHECK ("price_amount" > 0);
ALTER TABLE "offers" ADD CONSTRAINT "offers_price_positive" CHECK ("price_amount" > 0);
ALTER TABLE "offers" ADD CONSTRAINT "offers_status_known" CHECK ("status" IN ('submitted', 'awarded', 'rejected', 'withdrawn'));
ALTER TABLE "results" ADD CONSTRAINT "results_status_known" CHECK ("status" IN ('submitted', 'accepted', 'rejected'));
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_status_known" CHECK ("status" IN ('open', 'resolved'));
ALTER TABLE "verifier_listings" ADD CONSTRAINT "verifier_listings_price_positive" CHECK ("price_amount" > 0);
ALTER TABLE "saga_steps" ADD CONSTRAINT "saga_steps_kind_known" CHECK ("kind" IN ('award', 'settle', 'release', 'resolve'));
ALTER TABLE "saga_steps" ADD CONSTRAINT "saga_steps_status_known" CHECK ("status" IN ('pending', 'done', 'failed', 'superseded'));
