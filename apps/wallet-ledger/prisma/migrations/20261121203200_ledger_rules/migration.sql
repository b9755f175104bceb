-- Hand-written: what schema.prisma cannot express. schema.snapshot.prisma is unchanged from the
-- previous migration, so `npm run db:diff` keeps diffing from the datamodel these tables match.

-- No agent balance below zero: the database refuses it, whatever the code does (DESIGN §4).
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_agent_balance_nonnegative"
  CHECK ("kind" NOT IN ('available', 'held') OR "balance" >= 0);
ALTER TABLE "postings" ADD CONSTRAINT "postings_amount_nonzero" CHECK ("amount" <> 0);
ALTER TABLE "holds" ADD CONSTRAINT "holds_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "faucet_grants" ADD CONSTRAINT "faucet_grants_amount_positive" CHECK ("amount" > 0);

-- Worker scans: active holds that can expire, withdrawals the payout processor still has to move.
CREATE INDEX "holds_expiry_idx" ON "holds" ("expires_at") WHERE "status" = 'active' AND "expires_at" IS NOT NULL;
CREATE INDEX "withdrawals_open_idx" ON "withdrawals" ("created_at", "withdrawal_id") WHERE "status" IN ('requested', 'processing');

-- The one controls row; start-up ORs WALLET_READ_ONLY / WALLET_KILL_SWITCHES into it.
INSERT INTO "controls" ("id", "read_only", "kill_switches", "reason", "updated_at") VALUES (1, false, '{}', '', now());

-- wallet_apply: commits one precomputed mutation in one round trip (README.md "Hot path").
-- The service computes everything (ids, postings, entity rows, events, the response); this
-- function re-checks what can change concurrently under row locks and writes it all, or writes
-- nothing and says why. Order: controls → stored idempotency outcome → entity state guard →
-- daily counter → account locks (account_id order) and balance check → idempotency record →
-- writes. Locks are always taken in that order (entity row, counter row, accounts).
-- Outcomes: applied | replayed (stored fingerprint/response/error) | recorded (p_error stored) |
-- blocked (detail read_only | kill_switch:<name>) | guard_failed (detail = current status) |
-- counter_stale (detail = current value) | insufficient (detail = the short account's balance).
CREATE FUNCTION wallet_apply(
  p_control        text,
  p_scope          text,
  p_key            text,
  p_fingerprint    text,
  p_operation      text,
  p_error          jsonb,
  p_guard_entity   text,
  p_guard_id       text,
  p_guard_status   text,
  p_counter_key    text,
  p_counter_day    date,
  p_counter_expect bigint,
  p_counter_delta  bigint,
  p_entry_id       text,
  p_entry_kind     text,
  p_currency       text,
  p_account_ids    text[],
  p_account_owners text[],
  p_account_kinds  text[],
  p_amounts        bigint[],
  p_rows           jsonb,
  p_events         jsonb,
  p_response       jsonb,
  p_now            timestamptz
) RETURNS TABLE (o_outcome text, o_detail text, o_fingerprint text, o_response jsonb, o_error jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  v_read_only boolean;
  v_switches  text[];
  v_current   text;
  v_used      bigint;
  v_short     text;
  v_balance   bigint;
  v_existing  text[];
  v_row       jsonb;
BEGIN
  SELECT c.read_only, c.kill_switches INTO v_read_only, v_switches FROM controls c WHERE c.id = 1;
  IF v_read_only THEN
    RETURN QUERY SELECT 'blocked'::text, 'read_only'::text, NULL::text, NULL::jsonb, NULL::jsonb;
    RETURN;
  END IF;
  IF p_control IS NOT NULL AND p_control = ANY (v_switches) THEN
    RETURN QUERY SELECT 'blocked'::text, 'kill_switch:' || p_control, NULL::text, NULL::jsonb, NULL::jsonb;
    RETURN;
  END IF;

  IF p_scope IS NOT NULL THEN
    RETURN QUERY SELECT 'replayed'::text, NULL::text, i.fingerprint, i.response, i.error
      FROM idempotency_keys i WHERE i.scope = p_scope AND i.key = p_key;
    IF FOUND THEN RETURN; END IF;
  END IF;

  IF p_error IS NOT NULL THEN
    INSERT INTO idempotency_keys (scope, key, operation, fingerprint, outcome, response, error, journal_entry_id, created_at, expires_at)
      VALUES (p_scope, p_key, p_operation, p_fingerprint, 'failed', NULL, p_error, NULL, p_now, p_now + interval '30 days')
      ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      -- A concurrent duplicate committed first (the insert waited for it): replay its outcome.
      RETURN QUERY SELECT 'replayed'::text, NULL::text, i.fingerprint, i.response, i.error
        FROM idempotency_keys i WHERE i.scope = p_scope AND i.key = p_key;
      RETURN;
    END IF;
    RETURN QUERY SELECT 'recorded'::text, NULL::text, NULL::text, NULL::jsonb, NULL::jsonb;
    RETURN;
  END IF;

  IF p_guard_entity IS NOT NULL THEN
    IF p_guard_entity = 'hold' THEN
      SELECT h.status::text INTO v_current FROM holds h WHERE h.hold_id = p_guard_id FOR UPDATE;
    ELSIF p_guard_entity = 'deposit' THEN
      SELECT d.status::text INTO v_current FROM deposits d WHERE d.deposit_id = p_guard_id FOR UPDATE;
    ELSIF p_guard_entity = 'withdrawal' THEN
      SELECT w.status::text INTO v_current FROM withdrawals w WHERE w.withdrawal_id = p_guard_id FOR UPDATE;
    ELSE
      RAISE EXCEPTION 'wallet_apply: unknown guard entity %', p_guard_entity;
    END IF;
    IF v_current IS DISTINCT FROM p_guard_status THEN
      RETURN QUERY SELECT 'guard_failed'::text, v_current, NULL::text, NULL::jsonb, NULL::jsonb;
      RETURN;
    END IF;
  END IF;

  IF p_counter_key IS NOT NULL THEN
    SELECT d.used INTO v_used FROM daily_counters d WHERE d.counter_key = p_counter_key AND d.day = p_counter_day FOR UPDATE;
    IF NOT FOUND THEN
      INSERT INTO daily_counters (counter_key, day, used) VALUES (p_counter_key, p_counter_day, 0) ON CONFLICT DO NOTHING;
      SELECT d.used INTO v_used FROM daily_counters d WHERE d.counter_key = p_counter_key AND d.day = p_counter_day FOR UPDATE;
    END IF;
    IF p_counter_expect IS NOT NULL AND v_used <> p_counter_expect THEN
      RETURN QUERY SELECT 'counter_stale'::text, v_used::text, NULL::text, NULL::jsonb, NULL::jsonb;
      RETURN;
    END IF;
  END IF;

  IF p_entry_id IS NOT NULL THEN
    IF (SELECT coalesce(sum(a), 0) FROM unnest(p_amounts) AS a) <> 0 THEN
      RAISE EXCEPTION 'wallet_apply: journal entry % does not balance', p_entry_id;
    END IF;
    SELECT coalesce(array_agg(l.account_id), '{}') INTO v_existing
      FROM (SELECT a.account_id FROM accounts a WHERE a.account_id = ANY (p_account_ids) ORDER BY a.account_id FOR UPDATE) AS l;
    SELECT x.id, coalesce(a.balance, 0) INTO v_short, v_balance
      FROM unnest(p_account_ids, p_account_kinds, p_amounts) AS x(id, kind, amount)
      LEFT JOIN accounts a ON a.account_id = x.id
      WHERE x.kind IN ('available', 'held') AND x.amount < 0 AND coalesce(a.balance, 0) + x.amount < 0
      LIMIT 1;
    IF v_short IS NOT NULL THEN
      RETURN QUERY SELECT 'insufficient'::text, v_balance::text, NULL::text, NULL::jsonb, NULL::jsonb;
      RETURN;
    END IF;
  END IF;

  IF p_scope IS NOT NULL THEN
    INSERT INTO idempotency_keys (scope, key, operation, fingerprint, outcome, response, error, journal_entry_id, created_at, expires_at)
      VALUES (p_scope, p_key, p_operation, p_fingerprint, 'succeeded', p_response, NULL, p_entry_id, p_now, p_now + interval '30 days')
      ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'replayed'::text, NULL::text, i.fingerprint, i.response, i.error
        FROM idempotency_keys i WHERE i.scope = p_scope AND i.key = p_key;
      RETURN;
    END IF;
  END IF;

  IF p_entry_id IS NOT NULL THEN
    -- Existing (locked) accounts are updated in place. The others are created; only credits and
    -- system accounts can be among them (a debit of a missing agent account was refused above),
    -- so the inserted row passes the CHECK, and ON CONFLICT covers a concurrent creation.
    UPDATE accounts a SET balance = a.balance + x.amount
      FROM unnest(p_account_ids, p_amounts) AS x(id, amount)
      WHERE a.account_id = x.id AND x.id = ANY (v_existing);
    INSERT INTO accounts (account_id, owner_id, currency, kind, balance)
      SELECT x.id, x.owner, p_currency, x.kind::account_kind, x.amount
      FROM unnest(p_account_ids, p_account_owners, p_account_kinds, p_amounts) AS x(id, owner, kind, amount)
      WHERE NOT (x.id = ANY (v_existing))
      ORDER BY x.id
      ON CONFLICT (account_id) DO UPDATE SET balance = accounts.balance + EXCLUDED.balance;
    INSERT INTO journal_entries (entry_id, kind, currency, idempotency_scope, idempotency_key, created_at)
      VALUES (p_entry_id, p_entry_kind, p_currency, p_scope, p_key, p_now);
    INSERT INTO postings (entry_id, account_id, amount)
      SELECT p_entry_id, x.id, x.amount FROM unnest(p_account_ids, p_amounts) AS x(id, amount);
  END IF;

  IF p_counter_key IS NOT NULL AND p_counter_delta <> 0 THEN
    UPDATE daily_counters d SET used = d.used + p_counter_delta WHERE d.counter_key = p_counter_key AND d.day = p_counter_day;
  END IF;

  FOR v_row IN SELECT r FROM jsonb_array_elements(coalesce(p_rows, '[]'::jsonb)) AS r LOOP
    CASE v_row->>'t'
      WHEN 'transfers' THEN
        INSERT INTO transfers SELECT * FROM jsonb_populate_record(NULL::transfers, v_row->'r');
      WHEN 'faucet_grants' THEN
        INSERT INTO faucet_grants SELECT * FROM jsonb_populate_record(NULL::faucet_grants, v_row->'r');
      WHEN 'holds' THEN
        INSERT INTO holds SELECT * FROM jsonb_populate_record(NULL::holds, v_row->'r')
          ON CONFLICT (hold_id) DO UPDATE SET status = EXCLUDED.status, consumed_amount = EXCLUDED.consumed_amount,
            released_amount = EXCLUDED.released_amount, consumed_to_agent_id = EXCLUDED.consumed_to_agent_id,
            journal_entry_ids = EXCLUDED.journal_entry_ids, updated_at = EXCLUDED.updated_at;
      WHEN 'deposits' THEN
        INSERT INTO deposits SELECT * FROM jsonb_populate_record(NULL::deposits, v_row->'r')
          ON CONFLICT (deposit_id) DO UPDATE SET status = EXCLUDED.status, journal_entry_id = EXCLUDED.journal_entry_id,
            updated_at = EXCLUDED.updated_at;
      WHEN 'withdrawals' THEN
        INSERT INTO withdrawals SELECT * FROM jsonb_populate_record(NULL::withdrawals, v_row->'r')
          ON CONFLICT (withdrawal_id) DO UPDATE SET status = EXCLUDED.status, failure_reason = EXCLUDED.failure_reason,
            journal_entry_ids = EXCLUDED.journal_entry_ids, updated_at = EXCLUDED.updated_at;
      WHEN 'payout_destinations' THEN
        INSERT INTO payout_destinations SELECT * FROM jsonb_populate_record(NULL::payout_destinations, v_row->'r');
      WHEN 'receipts' THEN
        INSERT INTO receipts SELECT * FROM jsonb_populate_record(NULL::receipts, v_row->'r');
      ELSE
        RAISE EXCEPTION 'wallet_apply: unknown table %', v_row->>'t';
    END CASE;
  END LOOP;

  INSERT INTO outbox_events (id, type, payload)
    SELECT e->>'id', e->>'type', e FROM jsonb_array_elements(coalesce(p_events, '[]'::jsonb)) AS e;

  RETURN QUERY SELECT 'applied'::text, NULL::text, NULL::text, NULL::jsonb, NULL::jsonb;
END;
$$;
