-- Hand-written (issue 6, market integrity): schema.snapshot.prisma is unchanged from the previous
-- migration. The erroneous clear runs as a saga step of kind 'correct'; the single integrity row
-- exists from the start so every read is one PK lookup and every change can lock it.
ALTER TABLE "saga_steps" DROP CONSTRAINT "saga_steps_kind_known";
ALTER TABLE "saga_steps" ADD CONSTRAINT "saga_steps_kind_known" CHECK ("kind" IN ('award', 'settle', 'release', 'resolve', 'correct'));
-- At most one pending correction per contract (a retried request finds the one already recorded).
CREATE UNIQUE INDEX "saga_steps_one_pending_correct" ON "saga_steps" ("contract_id") WHERE "kind" = 'correct' AND "status" = 'pending';
ALTER TABLE "integrity_state" ADD CONSTRAINT "integrity_state_single" CHECK ("id" = 1);
ALTER TABLE "integrity_state" ADD CONSTRAINT "integrity_state_known" CHECK ("state" IN ('normal', 'elevated', 'restricted', 'halted'));
ALTER TABLE "kill_switches" ADD CONSTRAINT "kill_switches_known" CHECK ("name" IN ('new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'));
INSERT INTO "integrity_state" ("id", "state", "since", "reason", "set_by", "wallet_controls_version", "wallet_synced_version")
  VALUES (1, 'normal', now(), NULL, NULL, 0, 0) ON CONFLICT DO NOTHING;
