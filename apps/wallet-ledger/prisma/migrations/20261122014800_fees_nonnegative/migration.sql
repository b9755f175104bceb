-- Hand-written: schema.snapshot.prisma is unchanged from the previous migration.
-- The fees account only ever received money until erroneous-clear corrections, which pay fees
-- back: it must never pay back more than it holds (CorrectSettlement checks first; this is the
-- backstop against two concurrent corrections).
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_fees_nonnegative" CHECK ("kind" <> 'fees' OR "balance" >= 0);
