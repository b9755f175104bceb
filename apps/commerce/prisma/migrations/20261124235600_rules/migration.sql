-- Invariants the database keeps whatever the code does (schema.prisma cannot express CHECKs).
-- A mandate never commits more than its total limit: completes reserve inside this bound.
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_amounts_nonnegative" CHECK ("spent" >= 0 AND "reserved" >= 0 AND "per_transaction" > 0 AND "total_limit" > 0);
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_within_total" CHECK ("spent" + "reserved" <= "total_limit");
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_status" CHECK ("status" IN ('active', 'paused', 'revoked', 'exhausted'));
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_autonomy_mode" CHECK ("autonomy_mode" IN ('autonomous', 'step_up', 'manual'));
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_mode" CHECK ("mode" IN ('live', 'shadow'));
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_status" CHECK ("status" IN ('incomplete', 'requires_escalation', 'ready_for_complete', 'complete_in_progress', 'completed', 'canceled'));
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_approval" CHECK ("approval" IN ('not_required', 'pending', 'approved', 'denied'));
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_payment_stage" CHECK ("payment_stage" IN ('none', 'reserved', 'hold_placed', 'merchant_completed', 'settled', 'released'));
-- Shadow sessions never pay.
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_shadow_unpaid" CHECK ("mode" = 'live' OR "payment_stage" = 'none');
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_amount_positive" CHECK ("amount" > 0);
