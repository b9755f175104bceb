-- AlterEnum
ALTER TYPE "account_kind" ADD VALUE 'merchant_settlement';


-- Hand-written below (commerce purchases; README.md "Settlement to a merchant").
-- A merchant's settlement account ("merchant:<domain>/<currency>/merchant_settlement") only
-- receives Settle payouts and pays back corrections: it must never go below zero. Compared as
-- text: the new enum value cannot be used in the transaction that adds it.
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_merchant_settlement_nonnegative"
  CHECK ("kind"::text <> 'merchant_settlement' OR "balance" >= 0);
