-- CreateIndex
CREATE INDEX "contracts_awarded_idx" ON "contracts"("awarded_at");

-- CreateIndex
CREATE INDEX "listings_seller_idx" ON "listings"("seller_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "offers_seller_idx" ON "offers"("seller_id", "created_at");

-- CreateIndex
CREATE INDEX "results_seller_idx" ON "results"("seller_id", "created_at");

-- CreateIndex
CREATE INDEX "verification_reports_verifier_idx" ON "verification_reports"("verifier_id", "created_at");

-- CreateIndex
CREATE INDEX "disputes_opened_by_idx" ON "disputes"("opened_by", "resolved_at");

