-- Hand-written (set-based group commit; README.md "Group commit"). schema.snapshot.prisma is
-- unchanged from the previous migration.
-- wallet_apply_batch, same arguments and rows as before, but without a wallet_apply() call per
-- plan: it decides every plan's outcome exactly as wallet_apply() would after the plans before
-- it, from one read of controls, balances and stored keys, simulating the balances and keys of
-- the plans before it in variables (plans are decided, not run); then it writes the decided rows
-- with one statement per table. Lock order: every existing account of the batch first, in
-- account_id order, as before; an account committed while that statement waited is locked by a
-- second statement, possibly out of account_id order (a deadlock there is retried like any).
-- Plans it does not simulate go through wallet_apply() itself, in their place, after the writes
-- of the plans before them (a "slow" plan): an entity guard or a daily counter (the service
-- batches neither), and a debit that would take an account of another kind than available/held
-- below zero (wallet_apply does not pre-check it: the CHECK constraints decide it per plan, as
-- before, not on the batch's net sum). The remaining plans' accounts are then locked and read
-- again.
-- A stored key meeting a concurrent duplicate at insertion raises: the service then runs the
-- plans one by one (src/data/batch-apply.ts), each replaying the committed key as before; so
-- does an account the batch counted as missing that another transaction created meanwhile, and
-- postings the simulation would not treat as wallet_apply() does (lengths, NULLs, an account
-- twice in a plan: wallet_apply() raises on all but some length mismatches, which it applies).
CREATE OR REPLACE FUNCTION wallet_apply_batch(p_plans jsonb)
RETURNS TABLE (o_outcome text, o_detail text, o_fingerprint text, o_response jsonb, o_error jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  n int;
  -- Plans, decoded once (index = position in p_plans, 1-based), every argument of wallet_apply().
  c_control text[]; c_scope text[]; c_key text[]; c_fp text[]; c_op text[]; c_error jsonb[];
  c_gent text[]; c_gid text[]; c_gst text[]; c_ckey text[]; c_cday date[]; c_cexp bigint[]; c_cdelta bigint[];
  c_entry text[]; c_kind text[]; c_cur text[]; c_rows jsonb[]; c_events jsonb[]; c_resp jsonb[]; c_now timestamptz[];
  c_p0 int[]; c_pn int[];
  -- Postings of all plans, flattened in plan order (f_plan: the plan's index).
  f_plan int[]; f_id text[]; f_owner text[]; f_kind text[]; f_amount bigint[];
  -- Segment state: controls, balances (s_locked: existing and locked), stored keys.
  v_read_only boolean; v_switches text[];
  s_id text[]; s_bal bigint[]; s_locked text[];
  k_id text[]; k_fp text[]; k_resp jsonb[]; k_err jsonb[];
  -- Decided writes not yet flushed: plans with a key row, applied plans, their postings.
  q_keys int[] := '{}'; q_applied int[] := '{}'; q_post int[] := '{}';
  v_i int := 1; i int; j int; v_pos int; v_kid text; v_short boolean; v_slow boolean;
  v_bal bigint; v_sum numeric; v_bad boolean; v_lengths boolean; v_ids int; v_rows bigint;
BEGIN
  SELECT count(*)::int,
         array_agg(p->>0 ORDER BY x.n), array_agg(p->>1 ORDER BY x.n), array_agg(p->>2 ORDER BY x.n),
         array_agg(p->>3 ORDER BY x.n), array_agg(p->>4 ORDER BY x.n),
         array_agg(CASE WHEN jsonb_typeof(p->5) = 'null' THEN NULL ELSE p->5 END ORDER BY x.n),
         array_agg(p->>6 ORDER BY x.n), array_agg(p->>7 ORDER BY x.n), array_agg(p->>8 ORDER BY x.n),
         array_agg(p->>9 ORDER BY x.n), array_agg((p->>10)::date ORDER BY x.n),
         array_agg((p->>11)::bigint ORDER BY x.n), array_agg((p->>12)::bigint ORDER BY x.n),
         array_agg(p->>13 ORDER BY x.n), array_agg(p->>14 ORDER BY x.n), array_agg(p->>15 ORDER BY x.n),
         array_agg(p->20 ORDER BY x.n), array_agg(p->21 ORDER BY x.n),
         array_agg(CASE WHEN jsonb_typeof(p->22) = 'null' THEN NULL ELSE p->22 END ORDER BY x.n),
         array_agg((p->>23)::timestamptz ORDER BY x.n),
         array_agg(coalesce(jsonb_array_length(p->16), 0) ORDER BY x.n),
         -- Postings arrays of different lengths (wallet_apply() unnests them side by side).
         coalesce(bool_or(coalesce(jsonb_array_length(p->16), 0) <> coalesce(jsonb_array_length(p->17), 0)
                       OR coalesce(jsonb_array_length(p->16), 0) <> coalesce(jsonb_array_length(p->18), 0)
                       OR coalesce(jsonb_array_length(p->16), 0) <> coalesce(jsonb_array_length(p->19), 0)), false)
    INTO n, c_control, c_scope, c_key, c_fp, c_op, c_error, c_gent, c_gid, c_gst, c_ckey, c_cday, c_cexp, c_cdelta,
         c_entry, c_kind, c_cur, c_rows, c_events, c_resp, c_now, c_pn, v_lengths
    FROM jsonb_array_elements(p_plans) WITH ORDINALITY AS x(p, n);
  IF n = 0 THEN RETURN; END IF;
  SELECT array_agg(x.n::int ORDER BY x.n, a.j), array_agg(a.id ORDER BY x.n, a.j),
         array_agg(p->17->>(a.j::int - 1) ORDER BY x.n, a.j), array_agg(p->18->>(a.j::int - 1) ORDER BY x.n, a.j),
         array_agg((p->19->>(a.j::int - 1))::bigint ORDER BY x.n, a.j),
         -- Postings the simulation would not treat as wallet_apply() does: a NULL id or amount
         -- (the simulation would skip a NULL amount in its sum and compare nothing; wallet_apply()
         -- raises: "does not balance", or a NOT NULL violation), an account twice in one plan
         -- (wallet_apply() raises 23505 on postings_pkey).
         bool_or(a.id IS NULL OR p->19->>(a.j::int - 1) IS NULL) OR count(DISTINCT (x.n, a.id)) <> count(*),
         count(DISTINCT a.id)
    INTO f_plan, f_id, f_owner, f_kind, f_amount, v_bad, v_ids
    FROM jsonb_array_elements(p_plans) WITH ORDINALITY AS x(p, n),
         jsonb_array_elements_text(p->16) WITH ORDINALITY AS a(id, j);
  IF v_lengths OR v_bad THEN
    -- wallet_apply() raises on these, or (some length mismatches) applies them in a way the
    -- batch does not simulate: the plans run one by one.
    RAISE EXCEPTION 'wallet_apply_batch: malformed postings (lengths, NULL amount or id, an account twice in a plan)'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  c_p0 := array_fill(0, ARRAY[n]);
  j := 1;
  FOR i IN 1..n LOOP c_p0[i] := j; j := j + c_pn[i]; END LOOP;

  -- Lock order as before: every existing account of the batch, in account_id order.
  -- FOR UPDATE reads the accounts visible when the statement started; one created and committed
  -- meanwhile (e.g. while it waited for a lock) would count as missing although a later
  -- wallet_apply() call would see it. When the lock found fewer accounts than the batch names, a
  -- fresh count catches that: lock again, with it.
  LOOP
    SELECT coalesce(array_agg(l.account_id), '{}'), coalesce(array_agg(l.balance), '{}') INTO s_id, s_bal
      FROM (SELECT a.account_id, a.balance FROM accounts a WHERE a.account_id = ANY (f_id) ORDER BY a.account_id FOR UPDATE) AS l;
    EXIT WHEN cardinality(s_id) >= v_ids OR (SELECT count(*) FROM accounts a WHERE a.account_id = ANY (f_id)) <= cardinality(s_id);
  END LOOP;

  <<segments>>
  WHILE v_i <= n LOOP
    IF v_i > 1 THEN
      -- After a slow plan: what it wrote (and accounts created meanwhile, locked now).
      SELECT count(DISTINCT u.id) INTO v_ids FROM unnest(f_id[c_p0[v_i]:]) AS u(id);
      LOOP
        SELECT coalesce(array_agg(l.account_id), '{}'), coalesce(array_agg(l.balance), '{}') INTO s_id, s_bal
          FROM (SELECT a.account_id, a.balance FROM accounts a WHERE a.account_id = ANY (f_id[c_p0[v_i]:]) ORDER BY a.account_id FOR UPDATE) AS l;
        EXIT WHEN cardinality(s_id) >= v_ids OR (SELECT count(*) FROM accounts a WHERE a.account_id = ANY (f_id[c_p0[v_i]:])) <= cardinality(s_id);
      END LOOP;
    END IF;
    s_locked := s_id;
    SELECT c.read_only, c.kill_switches INTO v_read_only, v_switches FROM controls c WHERE c.id = 1;
    -- Stored keys of the remaining plans; "len:scope" || key cannot collide.
    SELECT coalesce(array_agg(length(ik.scope) || ':' || ik.scope || ik.key), '{}'), coalesce(array_agg(ik.fingerprint), '{}'),
           coalesce(array_agg(ik.response), '{}'), coalesce(array_agg(ik.error), '{}')
      INTO k_id, k_fp, k_resp, k_err
      FROM idempotency_keys ik
     WHERE (ik.scope, ik.key) IN (SELECT u.s, u.k FROM unnest(c_scope[v_i:], c_key[v_i:]) AS u(s, k) WHERE u.s IS NOT NULL);

    FOR i IN v_i..n LOOP
      o_detail := NULL; o_fingerprint := NULL; o_response := NULL; o_error := NULL; v_kid := NULL;
      IF v_read_only THEN
        o_outcome := 'blocked'; o_detail := 'read_only'; RETURN NEXT; CONTINUE;
      END IF;
      IF c_control[i] IS NOT NULL AND c_control[i] = ANY (v_switches) THEN
        o_outcome := 'blocked'; o_detail := 'kill_switch:' || c_control[i]; RETURN NEXT; CONTINUE;
      END IF;
      v_slow := c_gent[i] IS NOT NULL OR c_ckey[i] IS NOT NULL;
      IF NOT v_slow THEN
        IF c_scope[i] IS NOT NULL THEN
          v_kid := length(c_scope[i]) || ':' || c_scope[i] || c_key[i];
          v_pos := array_position(k_id, v_kid);
          IF v_pos IS NOT NULL THEN
            o_outcome := 'replayed'; o_fingerprint := k_fp[v_pos]; o_response := k_resp[v_pos]; o_error := k_err[v_pos];
            RETURN NEXT; CONTINUE;
          END IF;
        END IF;
        IF c_error[i] IS NOT NULL THEN
          q_keys := q_keys || i;
          IF v_kid IS NOT NULL THEN
            k_id := k_id || v_kid; k_fp := k_fp || c_fp[i]; k_resp := k_resp || NULL::jsonb; k_err := k_err || c_error[i];
          END IF;
          o_outcome := 'recorded'; RETURN NEXT; CONTINUE;
        END IF;
        IF c_entry[i] IS NOT NULL THEN
          -- numeric, as wallet_apply() sums (no bigint overflow on [MAX, 1, -MAX, -1]). The short
          -- account reported is the first short debit in posting order (f_* are in posting order).
          v_sum := 0; v_short := false;
          FOR j IN c_p0[i]..c_p0[i] + c_pn[i] - 1 LOOP
            v_sum := v_sum + f_amount[j];
            IF f_amount[j] < 0 AND NOT v_short THEN
              v_pos := array_position(s_id, f_id[j]);
              v_bal := CASE WHEN v_pos IS NULL THEN 0 ELSE s_bal[v_pos] END;
              IF v_bal::numeric + f_amount[j] < 0 THEN
                IF f_kind[j] IN ('available', 'held') THEN
                  v_short := true; o_detail := v_bal::text;
                ELSE
                  v_slow := true;
                END IF;
              END IF;
            END IF;
          END LOOP;
          IF v_sum <> 0 THEN
            RAISE EXCEPTION 'wallet_apply: journal entry % does not balance', c_entry[i];
          END IF;
          IF v_short THEN
            o_outcome := 'insufficient'; RETURN NEXT; CONTINUE;
          END IF;
        END IF;
      END IF;

      IF v_slow THEN
        -- wallet_apply() itself, after the writes decided before it; then the state is read again.
        PERFORM wallet_apply_batch_flush(c_scope, c_key, c_op, c_fp, c_error, c_resp, c_entry, c_kind, c_cur, c_rows, c_events, c_now,
                                         f_plan, f_id, f_owner, f_kind, f_amount, s_locked, q_keys, q_applied, q_post);
        q_keys := '{}'; q_applied := '{}'; q_post := '{}';
        RETURN QUERY SELECT * FROM wallet_apply(
          c_control[i], c_scope[i], c_key[i], c_fp[i], c_op[i], c_error[i], c_gent[i], c_gid[i], c_gst[i],
          c_ckey[i], c_cday[i], c_cexp[i], c_cdelta[i], c_entry[i], c_kind[i], c_cur[i],
          coalesce(f_id[c_p0[i]:c_p0[i] + c_pn[i] - 1], '{}'), coalesce(f_owner[c_p0[i]:c_p0[i] + c_pn[i] - 1], '{}'),
          coalesce(f_kind[c_p0[i]:c_p0[i] + c_pn[i] - 1], '{}'), coalesce(f_amount[c_p0[i]:c_p0[i] + c_pn[i] - 1], '{}'),
          c_rows[i], c_events[i], c_resp[i], c_now[i]);
        GET DIAGNOSTICS v_rows = ROW_COUNT;
        IF v_rows <> 1 THEN
          -- One row per plan, or no row can be matched to its plan: raise before anything commits.
          RAISE EXCEPTION 'wallet_apply_batch: wallet_apply returned % rows for plan %', v_rows, i USING ERRCODE = 'cardinality_violation';
        END IF;
        v_i := i + 1;
        CONTINUE segments;
      END IF;

      -- Applied: its key, its balances, its writes (queued).
      IF c_scope[i] IS NOT NULL THEN
        q_keys := q_keys || i;
        k_id := k_id || v_kid; k_fp := k_fp || c_fp[i]; k_resp := k_resp || c_resp[i]; k_err := k_err || NULL::jsonb;
      END IF;
      IF c_entry[i] IS NOT NULL THEN
        FOR j IN c_p0[i]..c_p0[i] + c_pn[i] - 1 LOOP
          v_pos := array_position(s_id, f_id[j]);
          IF v_pos IS NULL THEN
            s_id := s_id || f_id[j]; s_bal := s_bal || f_amount[j];
          ELSE
            s_bal[v_pos] := s_bal[v_pos] + f_amount[j];
          END IF;
          q_post := q_post || j;
        END LOOP;
      END IF;
      q_applied := q_applied || i;
      o_outcome := 'applied'; RETURN NEXT;
    END LOOP;
    v_i := n + 1;
  END LOOP;

  PERFORM wallet_apply_batch_flush(c_scope, c_key, c_op, c_fp, c_error, c_resp, c_entry, c_kind, c_cur, c_rows, c_events, c_now,
                                   f_plan, f_id, f_owner, f_kind, f_amount, s_locked, q_keys, q_applied, q_post);
END;
$$;

-- The writes wallet_apply_batch decided, one statement per table, in plan order: key rows
-- (q_keys), then for the applied plans (q_applied, their postings q_post) balances, entries,
-- postings, entity rows and events. Accounts locked at the segment's start (s_locked) get their
-- summed delta; the others are created. One of those created meanwhile by another transaction
-- (invisible to the lock, so the batch counted it 0) raises: the plans then run one by one.
CREATE FUNCTION wallet_apply_batch_flush(
  c_scope text[], c_key text[], c_op text[], c_fp text[], c_error jsonb[], c_resp jsonb[], c_entry text[], c_kind text[],
  c_cur text[], c_rows jsonb[], c_events jsonb[], c_now timestamptz[],
  f_plan int[], f_id text[], f_owner text[], f_kind text[], f_amount bigint[],
  s_locked text[], q_keys int[], q_applied int[], q_post int[]
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_count bigint;
  v_new bigint;
  v_table text;
  v_rows jsonb[];
BEGIN
  IF cardinality(q_keys) > 0 THEN
    INSERT INTO idempotency_keys (scope, key, operation, fingerprint, outcome, response, error, journal_entry_id, created_at, expires_at)
      SELECT c_scope[u.i], c_key[u.i], c_op[u.i], c_fp[u.i],
             (CASE WHEN c_error[u.i] IS NULL THEN 'succeeded' ELSE 'failed' END)::idempotency_outcome,
             CASE WHEN c_error[u.i] IS NULL THEN c_resp[u.i] END, c_error[u.i],
             CASE WHEN c_error[u.i] IS NULL THEN c_entry[u.i] END, c_now[u.i], c_now[u.i] + interval '30 days'
        FROM unnest(q_keys) WITH ORDINALITY AS u(i, o) ORDER BY u.o
      ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> cardinality(q_keys) THEN
      -- A concurrent duplicate committed after the lookup: one by one, each plan replays it.
      RAISE EXCEPTION 'wallet_apply_batch: a key of the batch was stored concurrently' USING ERRCODE = 'unique_violation';
    END IF;
  END IF;
  IF cardinality(q_applied) = 0 THEN RETURN; END IF;

  IF cardinality(q_post) > 0 THEN
    UPDATE accounts a SET balance = a.balance + d.amount
      FROM (SELECT f_id[j] AS id, sum(f_amount[j])::bigint AS amount FROM unnest(q_post) AS u(j) GROUP BY 1) AS d
     WHERE a.account_id = d.id AND d.id = ANY (s_locked);
    -- The accounts to create, grouped once: how many, and how many the insert created.
    WITH d AS (SELECT f_id[j] AS id, min(j) AS j0, sum(f_amount[j])::bigint AS amount FROM unnest(q_post) AS u(j)
                WHERE NOT (f_id[j] = ANY (s_locked)) GROUP BY 1),
         ins AS (INSERT INTO accounts (account_id, owner_id, currency, kind, balance)
                   SELECT d.id, f_owner[d.j0], c_cur[f_plan[d.j0]], f_kind[d.j0]::account_kind, d.amount FROM d ORDER BY d.id
                   ON CONFLICT (account_id) DO NOTHING
                   RETURNING 1)
    SELECT (SELECT count(*) FROM d), (SELECT count(*) FROM ins) INTO v_new, v_count;
    IF v_count <> v_new THEN
      -- Another transaction created one of them after the lock (the insert waited for it to
      -- commit): its balance was not 0 for the plans that read it. One by one instead.
      RAISE EXCEPTION 'wallet_apply_batch: an account of the batch was created concurrently' USING ERRCODE = 'unique_violation';
    END IF;
  END IF;
  INSERT INTO journal_entries (entry_id, kind, currency, idempotency_scope, idempotency_key, created_at)
    SELECT c_entry[u.i], c_kind[u.i], c_cur[u.i], c_scope[u.i], c_key[u.i], c_now[u.i]
      FROM unnest(q_applied) WITH ORDINALITY AS u(i, o) WHERE c_entry[u.i] IS NOT NULL ORDER BY u.o;
  IF cardinality(q_post) > 0 THEN
    INSERT INTO postings (entry_id, account_id, amount)
      SELECT c_entry[f_plan[u.j]], f_id[u.j], f_amount[u.j] FROM unnest(q_post) WITH ORDINALITY AS u(j, o) ORDER BY u.o;
  END IF;

  -- The upserts are wallet_apply()'s. One statement affecting the same row twice raises (21000:
  -- two plans of the batch, or one plan, upserting the same row): the plans then run one by one.
  -- The applied plans' entity rows, in plan order, expanded once.
  SELECT coalesce(array_agg(e.r ORDER BY u.o, e.k), '{}') INTO v_rows
    FROM unnest(q_applied) WITH ORDINALITY AS u(i, o), jsonb_array_elements(coalesce(c_rows[u.i], '[]')) WITH ORDINALITY AS e(r, k);
  FOR v_table IN SELECT DISTINCT e.r->>'t' FROM unnest(v_rows) AS e(r) LOOP
    CASE v_table
      WHEN 'transfers' THEN
        INSERT INTO transfers SELECT t.* FROM unnest(v_rows) WITH ORDINALITY AS e(r, k), jsonb_populate_record(NULL::transfers, e.r->'r') AS t
          WHERE e.r->>'t' = 'transfers' ORDER BY e.k;
      WHEN 'faucet_grants' THEN
        INSERT INTO faucet_grants SELECT t.* FROM unnest(v_rows) WITH ORDINALITY AS e(r, k), jsonb_populate_record(NULL::faucet_grants, e.r->'r') AS t
          WHERE e.r->>'t' = 'faucet_grants' ORDER BY e.k;
      WHEN 'payout_destinations' THEN
        INSERT INTO payout_destinations SELECT t.* FROM unnest(v_rows) WITH ORDINALITY AS e(r, k), jsonb_populate_record(NULL::payout_destinations, e.r->'r') AS t
          WHERE e.r->>'t' = 'payout_destinations' ORDER BY e.k;
      WHEN 'holds' THEN
        INSERT INTO holds SELECT t.* FROM unnest(v_rows) WITH ORDINALITY AS e(r, k), jsonb_populate_record(NULL::holds, e.r->'r') AS t
          WHERE e.r->>'t' = 'holds' ORDER BY e.k
          ON CONFLICT (hold_id) DO UPDATE SET status = EXCLUDED.status, consumed_amount = EXCLUDED.consumed_amount,
            released_amount = EXCLUDED.released_amount, consumed_to_agent_id = EXCLUDED.consumed_to_agent_id,
            journal_entry_ids = EXCLUDED.journal_entry_ids, updated_at = EXCLUDED.updated_at;
      WHEN 'deposits' THEN
        INSERT INTO deposits SELECT t.* FROM unnest(v_rows) WITH ORDINALITY AS e(r, k), jsonb_populate_record(NULL::deposits, e.r->'r') AS t
          WHERE e.r->>'t' = 'deposits' ORDER BY e.k
          ON CONFLICT (deposit_id) DO UPDATE SET status = EXCLUDED.status, journal_entry_id = EXCLUDED.journal_entry_id,
            updated_at = EXCLUDED.updated_at;
      WHEN 'withdrawals' THEN
        INSERT INTO withdrawals SELECT t.* FROM unnest(v_rows) WITH ORDINALITY AS e(r, k), jsonb_populate_record(NULL::withdrawals, e.r->'r') AS t
          WHERE e.r->>'t' = 'withdrawals' ORDER BY e.k
          ON CONFLICT (withdrawal_id) DO UPDATE SET status = EXCLUDED.status, failure_reason = EXCLUDED.failure_reason,
            journal_entry_ids = EXCLUDED.journal_entry_ids, updated_at = EXCLUDED.updated_at;
      WHEN 'receipts' THEN
        INSERT INTO receipts SELECT t.* FROM unnest(v_rows) WITH ORDINALITY AS e(r, k), jsonb_populate_record(NULL::receipts, e.r->'r') AS t
          WHERE e.r->>'t' = 'receipts' ORDER BY e.k;
      ELSE
        RAISE EXCEPTION 'wallet_apply: unknown table %', v_table;
    END CASE;
  END LOOP;

  INSERT INTO outbox_events (id, type, payload)
    SELECT x.e->>'id', x.e->>'type', x.e FROM unnest(q_applied) WITH ORDINALITY AS u(i, o),
        jsonb_array_elements(coalesce(c_events[u.i], '[]')) WITH ORDINALITY AS x(e, k)
      ORDER BY u.o, x.k;
END;
$$;
