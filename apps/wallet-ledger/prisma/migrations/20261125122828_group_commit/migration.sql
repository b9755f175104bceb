-- DropIndex
-- journal_entries_idempotency_idx: read by nobody but CheckLedger's double-effect check, which
-- groups the whole table (a hash aggregate without it); each entry paid one index insertion.
DROP INDEX "journal_entries_idempotency_idx";


-- Hand-written below (group commit; README.md "Group commit").
-- wallet_apply_batch: commits several plans in ONE transaction and one round trip. p_plans is a
-- JSON array of plans, each the array of wallet_apply()'s 24 arguments in order (jsonb where the
-- argument is jsonb, JSON arrays where it is an array). Every plan runs through wallet_apply()
-- itself, in array order, so each gets exactly the outcome it would get alone after the plans
-- before it (a second plan with the same key replays the first). One row per plan, in order.
-- Lock order: every existing account of the batch is locked first, in account_id order (the
-- order wallet_apply uses), so a batch waits for a single plan, or the other way round, instead
-- of deadlocking; the service sends only plans without an entity guard or a daily counter here
-- (those lock a row before accounts). A raised error rolls the whole batch back: the service
-- then runs its plans one by one (src/data/batch-apply.ts).
CREATE FUNCTION wallet_apply_batch(p_plans jsonb)
RETURNS TABLE (o_outcome text, o_detail text, o_fingerprint text, o_response jsonb, o_error jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  v_plan jsonb;
BEGIN
  PERFORM 1 FROM accounts a
    WHERE a.account_id IN (SELECT jsonb_array_elements_text(p->16) FROM jsonb_array_elements(p_plans) AS p)
    ORDER BY a.account_id FOR UPDATE;

  FOR v_plan IN SELECT p FROM jsonb_array_elements(p_plans) WITH ORDINALITY AS x(p, n) ORDER BY x.n LOOP
    RETURN QUERY SELECT * FROM wallet_apply(
      v_plan->>0, v_plan->>1, v_plan->>2, v_plan->>3, v_plan->>4,
      CASE WHEN jsonb_typeof(v_plan->5) = 'null' THEN NULL ELSE v_plan->5 END,
      v_plan->>6, v_plan->>7, v_plan->>8, v_plan->>9,
      (v_plan->>10)::date, (v_plan->>11)::bigint, (v_plan->>12)::bigint,
      v_plan->>13, v_plan->>14, v_plan->>15,
      ARRAY(SELECT jsonb_array_elements_text(v_plan->16)),
      ARRAY(SELECT jsonb_array_elements_text(v_plan->17)),
      ARRAY(SELECT jsonb_array_elements_text(v_plan->18)),
      ARRAY(SELECT a::bigint FROM jsonb_array_elements_text(v_plan->19) AS a),
      v_plan->20, v_plan->21,
      CASE WHEN jsonb_typeof(v_plan->22) = 'null' THEN NULL ELSE v_plan->22 END,
      (v_plan->>23)::timestamptz);
  END LOOP;
END;
$$;
