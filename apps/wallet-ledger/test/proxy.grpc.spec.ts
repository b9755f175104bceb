import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { verifyDocket } from '@exchange/casefile';
import { errors } from '@exchange/platform';
import { commerceV1, type walletV1Metering } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';
import { ledgerReport } from '../src/ledger/ledger.repo';
import { agentId, balancesOf, fund, grpcError, key, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

// RecordProxyCall, ExportProxyCasefile, GetProxyMetrics against a real wallet on PostgreSQL, a
// fake identity and a fake commerce serving GetMandate (README.md "Gateway proxy").

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const HOUR = 3_600_000;
const RECORDED = 'exchange.wallet.proxy_call.recorded';

describe('wallet-ledger gRPC: gateway proxy calls', () => {
  let t: TestWallet;
  let commerce: ProtoFake;
  let offsetMs = 0;
  const mandates = new Map<string, commerceV1.Mandate>();

  beforeAll(async () => {
    commerce = await startProtoFake(commerceV1.CommerceServiceService, {
      getMandate: (req) => {
        const m = mandates.get(req.mandateId);
        // Commerce hides a mandate from a non-party.
        if (!m || (m.agentId !== req.actor?.agentId && m.signerAgentId !== req.actor?.agentId)) throw errors.notFound('mandate', req.mandateId);
        return { mandate: m };
      },
    });
    t = await startTestWallet({ name: 'wallet_proxy', env: { COMMERCE_GRPC_URL: commerce.address }, clock: () => new Date(Date.now() + offsetMs) });
  });
  afterAll(async () => {
    await t?.close();
    await commerce?.stop();
  });

  const newAgent = (name: string) => {
    const id = agentId(name);
    t.identity.put({ agentId: id });
    return id;
  };
  const holdOf = async (agent: string, amount: string, extra: { controller?: string; expiresAt?: Date } = {}) => {
    await fund(t.client, agent, amount);
    return (await t.client.createHold({ agentId: agent, amount, currency: 'CREDIT', idempotencyKey: key(), ...extra })).hold!.holdId;
  };
  const mandateOf = (agent: string, m: Partial<commerceV1.Mandate> = {}) => {
    const id = `mdt_${key()}`;
    mandates.set(id, commerceV1.Mandate.fromPartial({
      mandateId: id, signerAgentId: 'principal:agent:p', agentId: agent, perTransaction: '2', totalLimit: '10', currency: 'USD',
      status: commerceV1.MandateStatus.MANDATE_STATUS_ACTIVE, spent: '0', reserved: '0', expiresAt: new Date(Date.now() + 24 * HOUR), ...m,
    }));
    return id;
  };
  type Budget = { hold: string } | { mandate: string };
  const req = (agent: string, budget: Budget, over: Partial<walletV1Metering.RecordProxyCallRequest> = {}): walletV1Metering.RecordProxyCallRequest => ({
    agentId: agent,
    runId: 'run-1',
    upstream: 'api.example.com',
    operation: 'POST /v1/chat',
    cost: '0.5',
    requestSha256: sha('req'),
    responseSha256: sha('res'),
    status: 200,
    latencyMs: 100,
    budget: 'hold' in budget ? { $case: 'holdId', value: budget.hold } : { $case: 'mandateId', value: budget.mandate },
    ...over,
  });
  const record = (agent: string, budget: Budget, over: Partial<walletV1Metering.RecordProxyCallRequest> = {}) => t.client.recordProxyCall(req(agent, budget, over));
  const callRows = async (agent: string) => (await t.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM proxy_calls WHERE agent_id = $1', [agent])).rows[0].n;
  /** Waits (polling, no deadline of its own) until `n` sessions wait for a row lock of the test database. */
  const waitForLockWaiters = async (n: number) => {
    for (;;) {
      const { rows } = await t.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0].n >= n) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const budgetRow = async (kind: string, ref: string) =>
    (await t.sql.query('SELECT spent::text, calls::text FROM proxy_budgets WHERE budget_kind = $1 AND budget_ref = $2', [kind, ref])).rows[0];

  describe('hold budgets', () => {
    it('should record a call, count it against the hold and publish it, moving no money', async () => {
      const a = newAgent('rec');
      const hold = await holdOf(a, '10');
      const res = await record(a, { hold }, { idempotencyKey: 'k1' });
      expect(res.idempotentReplayed).toBe(false);
      expect(res.call).toMatchObject({ agentId: a, runId: 'run-1', cost: '0.5', currency: 'CREDIT', budgetKind: 'hold', budgetRef: hold, status: 200, idempotencyKey: 'k1' });
      expect(res.call!.callId).toMatch(/^pxc_/);
      expect(res.budget).toEqual({ kind: 'hold', ref: hold, currency: 'CREDIT', limit: '10', spent: '0.5', remaining: '9.5', calls: '1' });
      const events = (await outboxOf(t.sql, a)).filter((e) => e.type === RECORDED);
      expect(events).toHaveLength(1);
      expect(events[0].data).toMatchObject({ call: { callId: res.call!.callId, cost: '0.5' }, budget: { spent: '0.5', remaining: '9.5' } });
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '0', held: '10' } });
    });

    it('should record exactly what fits when 50 calls race for a hold of 10 costs', async () => {
      const a = newAgent('race');
      const hold = await holdOf(a, '2.5');
      const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => record(a, { hold }, { cost: '0.25', latencyMs: i })));
      const refused = await Promise.all(results.filter((r) => r.status === 'rejected').map((r) => grpcError(Promise.reject((r as PromiseRejectedResult).reason))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      expect(refused).toHaveLength(40);
      for (const e of refused) expect(e).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'budget_exceeded', details: { limit: '2.5', spent: '2.5', remaining: '0' } });
      expect(await budgetRow('hold', hold)).toEqual({ spent: '2500000', calls: '10' });
      expect(await callRows(a)).toBe(10);
      expect((await outboxOf(t.sql, a)).filter((e) => e.type === RECORDED)).toHaveLength(10);
      expect((await t.client.checkLedger({})).ok).toBe(true);
    });

    it('should refuse a call over what is left with the figures, recording nothing', async () => {
      const a = newAgent('over');
      const hold = await holdOf(a, '1');
      await record(a, { hold }, { cost: '0.7' });
      const err = await grpcError(record(a, { hold }, { cost: '0.300001' }));
      expect(err).toMatchObject({ code: 'budget_exceeded', details: { limit: '1', spent: '0.7', remaining: '0.3', cost: '0.300001', currency: 'CREDIT' } });
      expect(await budgetRow('hold', hold)).toEqual({ spent: '700000', calls: '1' });
      expect(await callRows(a)).toBe(1);
      expect((await record(a, { hold }, { cost: '0.3' })).budget).toMatchObject({ spent: '1', remaining: '0', calls: '2' });
    });

    it('should refuse a hold that is not an active, unexpired, agent-controlled hold of the agent', async () => {
      const a = newAgent('holds');
      const b = newAgent('holds-other');
      const released = await holdOf(a, '5');
      await t.client.releaseHold({ agentId: a, holdId: released, idempotencyKey: key() });
      const market = await holdOf(a, '5', { controller: 'market' });
      const others = await holdOf(b, '5');
      const expiring = await holdOf(a, '5', { expiresAt: new Date(Date.now() + HOUR) });
      const unavailable = (reason: string) => ({ grpcCode: status.FAILED_PRECONDITION, code: 'budget_unavailable', details: expect.objectContaining({ reason }) });
      expect(await grpcError(record(a, { hold: released }))).toMatchObject(unavailable('not_active'));
      expect(await grpcError(record(a, { hold: market }))).toMatchObject(unavailable('not_agent_controlled'));
      expect(await grpcError(record(a, { hold: others }))).toMatchObject(unavailable('other_agent'));
      offsetMs = 2 * HOUR;
      try {
        expect(await grpcError(record(a, { hold: expiring }))).toMatchObject(unavailable('expired'));
      } finally {
        offsetMs = 0;
      }
      expect(await grpcError(record(a, { hold: 'hld_unknown' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'hold_not_found' });
      expect(await grpcError(record(a, { hold: expiring }, { currency: 'USD' }))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'budget_currency_mismatch',
        details: { budget_currency: 'CREDIT' },
      });
      expect(await callRows(a)).toBe(0);
      expect(await callRows(b)).toBe(0);
    });

    it('should report a budget whose totals differ from its calls in CheckLedger', async () => {
      const a = newAgent('chk');
      const hold = await holdOf(a, '3');
      await record(a, { hold }, { cost: '1' });
      const client = await t.sql.connect();
      try {
        await client.query('BEGIN');
        await client.query(`UPDATE proxy_budgets SET spent = spent - 1 WHERE budget_kind = 'hold' AND budget_ref = $1`, [hold]);
        const report = await ledgerReport(client, new Date());
        expect(report.ok).toBe(false);
        expect(report.discrepancies).toEqual([
          { kind: 'proxy_budget_mismatch', subject: `hold/${hold}`, expected: 'spent 1 in 1 calls', actual: 'spent 0.999999 in 1 calls', detail: expect.any(String) },
        ]);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
      expect((await t.client.checkLedger({})).ok).toBe(true);
    });
  });

  describe('mandate budgets', () => {
    it('should bound the spend by the per-transaction limit and what commerce has not spent or reserved', async () => {
      const a = newAgent('mdt');
      const mandate = mandateOf(a, { spent: '8', reserved: '1' });
      const ok = await record(a, { mandate }, { cost: '0.6' });
      expect(ok.call).toMatchObject({ currency: 'USD', budgetKind: 'mandate', budgetRef: mandate });
      expect(ok.budget).toEqual({ kind: 'mandate', ref: mandate, currency: 'USD', limit: '1', spent: '0.6', remaining: '0.4', calls: '1' });
      expect(commerce.lastCall('getMandate').request).toEqual({ actor: { agentId: a, operator: false }, mandateId: mandate });
      expect(await grpcError(record(a, { mandate }, { cost: '0.6' }))).toMatchObject({ code: 'budget_exceeded', details: { limit: '1', spent: '0.6', remaining: '0.4' } });
      const big = mandateOf(a);
      expect(await grpcError(record(a, { mandate: big }, { cost: '2.01' }))).toMatchObject({
        code: 'budget_exceeded',
        details: { reason: 'per_transaction', per_transaction: '2', cost: '2.01' },
      });
      expect(await grpcError(record(a, { mandate: big }, { currency: 'CREDIT' }))).toMatchObject({ code: 'budget_currency_mismatch' });
      expect(await callRows(a)).toBe(1);
    });

    it('should refuse a mandate that is revoked, expired, unknown or not the agent\'s', async () => {
      const a = newAgent('mdt-bad');
      const revoked = mandateOf(a, { status: commerceV1.MandateStatus.MANDATE_STATUS_REVOKED });
      const expired = mandateOf(a, { expiresAt: new Date(Date.now() - 1000) });
      const signed = mandateOf('principal:agent:someone-else', { signerAgentId: a });
      expect(await grpcError(record(a, { mandate: revoked }))).toMatchObject({ code: 'budget_unavailable', details: { reason: 'not_active', status: 'revoked' } });
      expect(await grpcError(record(a, { mandate: expired }))).toMatchObject({ code: 'budget_unavailable', details: expect.objectContaining({ reason: 'expired' }) });
      expect(await grpcError(record(a, { mandate: signed }))).toMatchObject({ code: 'budget_unavailable', details: expect.objectContaining({ reason: 'other_agent' }) });
      expect(await grpcError(record(a, { mandate: 'mdt_unknown' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'mandate_not_found' });
    });

    it('should answer commerce_unavailable when commerce is down or not configured', async () => {
      const a = newAgent('mdt-down');
      const mandate = mandateOf(a);
      commerce.failNext('getMandate', errors.unavailable('service_unavailable', 'down'));
      expect(await grpcError(record(a, { mandate }))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'commerce_unavailable' });
      await t.restart({ COMMERCE_GRPC_URL: '' });
      try {
        expect(await grpcError(record(a, { mandate }))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'commerce_unavailable' });
      } finally {
        await t.restart();
      }
      expect((await record(a, { mandate })).budget?.calls).toBe('1');
    });
  });

  describe('idempotency, callers and modes', () => {
    it('should replay the same call for the same key (with the budget as it is now) and refuse the key for another call', async () => {
      const a = newAgent('idem');
      const hold = await holdOf(a, '10');
      const first = await record(a, { hold }, { idempotencyKey: 'same' });
      await record(a, { hold }, { cost: '1' });
      const again = await record(a, { hold }, { idempotencyKey: 'same', cost: '0.500000' });
      expect(again).toMatchObject({ idempotentReplayed: true, call: first.call, budget: { spent: '1.5', calls: '2' } });
      expect(await grpcError(record(a, { hold }, { idempotencyKey: 'same', status: 500 }))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'idempotency_key_reused' });
      const racing = await Promise.all(Array.from({ length: 8 }, () => record(a, { hold }, { idempotencyKey: 'race' })));
      expect(new Set(racing.map((r) => r.call!.callId)).size).toBe(1);
      expect(racing.filter((r) => !r.idempotentReplayed)).toHaveLength(1);
      expect(await budgetRow('hold', hold)).toEqual({ spent: '2000000', calls: '3' });
      expect((await outboxOf(t.sql, a)).filter((e) => e.type === RECORDED)).toHaveLength(3);
    });

    // Both calls are held at their budget locks until both have passed the key lookup, so they
    // meet at the unique (agent, key) index: the loser is rolled back and answers from the winner.
    it('should let one of two concurrent calls with one key on two budgets win, and refuse the other as a reused key', async () => {
      const a = newAgent('idem-two');
      const [h1, h2] = [await holdOf(a, '5'), await holdOf(a, '5')];
      await record(a, { hold: h1 });
      await record(a, { hold: h2 });
      const blocker = await t.sql.connect();
      let results: PromiseSettledResult<unknown>[];
      try {
        await blocker.query('BEGIN');
        await blocker.query(`SELECT 1 FROM proxy_budgets WHERE budget_ref IN ($1, $2) FOR UPDATE`, [h1, h2]);
        const racing = Promise.allSettled([record(a, { hold: h1 }, { idempotencyKey: 'both' }), record(a, { hold: h2 }, { idempotencyKey: 'both' })]);
        await waitForLockWaiters(2);
        await blocker.query('COMMIT');
        results = await racing;
      } finally {
        blocker.release();
      }
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(await grpcError(Promise.reject(loser.reason))).toMatchObject({ code: 'idempotency_key_reused' });
      expect(await callRows(a)).toBe(3);
      expect((await t.client.checkLedger({})).ok).toBe(true);
    });

    it('should refuse invalid fields by name, unknown and frozen agents, and writes in read-only mode', async () => {
      const a = newAgent('who');
      const hold = await holdOf(a, '10');
      const field = async (over: Partial<walletV1Metering.RecordProxyCallRequest>) => (await grpcError(record(a, { hold }, over))).details?.['field'];
      expect(await field({ runId: 'bad run' })).toBe('run_id');
      expect(await field({ cost: '-0.1' })).toBe('cost');
      expect(await field({ requestSha256: 'XYZ' })).toBe('request_sha256');
      expect(await field({ status: 700 })).toBe('status');
      expect(await field({ budget: undefined })).toBe('hold_id');
      expect(await grpcError(record(agentId('ghost'), { hold }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'agent_not_found' });
      const f = newAgent('frozen');
      t.identity.freeze(f);
      expect(await grpcError(record(f, { hold }))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'agent_frozen' });
      await t.client.setControls({ controls: { readOnly: true, killSwitches: [] }, reason: 'drill' });
      try {
        expect(await grpcError(record(a, { hold }))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'read_only' });
      } finally {
        await t.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'drill over' });
      }
      expect(await callRows(a)).toBe(0);
      expect((await record(a, { hold })).budget?.calls).toBe('1');
    });
  });

  describe('run casefile', () => {
    it("should export a run's calls as a signed docket that verifies, and fails at a tampered entry", async () => {
      const a = newAgent('case');
      const hold = await holdOf(a, '10');
      const calls: walletV1Metering.ProxyCall[] = [];
      for (const latencyMs of [30, 10, 20]) calls.push((await record(a, { hold }, { runId: 'run-cf', latencyMs })).call!);
      await record(a, { hold }, { runId: 'run-other' });
      const res = await t.client.exportProxyCasefile({ agentId: a, runId: 'run-cf' });
      expect(res.callCount).toBe('3');
      const docket = JSON.parse(res.docketJson);
      expect(docket.subject).toEqual({ agent_id: a, run_id: 'run-cf' });
      expect(docket.entries.map((e: { kind: string; ref: string }) => [e.kind, e.ref])).toEqual(calls.map((c) => ['proxy_call', c.callId]));
      expect(docket.entries[0].content).toEqual({
        call_id: calls[0].callId, agent_id: a, run_id: 'run-cf', upstream: 'api.example.com', operation: 'POST /v1/chat', cost: '0.5', currency: 'CREDIT',
        request_sha256: sha('req'), response_sha256: sha('res'), status: 200, latency_ms: 30, budget_kind: 'hold', budget_ref: hold, idempotency_key: null,
        recorded_at: calls[0].recordedAt!.toISOString(),
      });
      expect(verifyDocket(docket, { trustedPublicKey: t.signerPublicKey })).toMatchObject({ valid: true });
      docket.entries[1].content.latency_ms = 1;
      const tampered = verifyDocket(docket, { trustedPublicKey: t.signerPublicKey });
      expect(tampered.valid).toBe(false);
      expect(tampered.checks.find((c) => c.ref === calls[1].callId)?.ok).toBe(false);
      expect(tampered.checks.find((c) => c.ref === calls[0].callId)?.ok).toBe(true);
    });

    it('should answer proxy_run_not_found for a run the agent recorded nothing in', async () => {
      const a = newAgent('case-none');
      expect(await grpcError(t.client.exportProxyCasefile({ agentId: a, runId: 'run-cf' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'proxy_run_not_found' });
      expect(await grpcError(t.client.exportProxyCasefile({ agentId: a, runId: '' }))).toMatchObject({ code: 'validation_failed', details: { field: 'run_id' } });
    });

    it('should refuse a run with more calls than one casefile holds (rows seeded in SQL: 4 001 calls)', async () => {
      const a = newAgent('case-big');
      await t.sql.query(
        `INSERT INTO proxy_calls (call_id, agent_id, run_id, upstream, operation, cost, currency, request_sha256, response_sha256,
                                  status, latency_ms, budget_kind, budget_ref, fingerprint, recorded_at)
         SELECT 'pxc_seed_' || $1 || '_' || i, $1, 'run-big', 'api.example.com', 'GET /x', 0, 'CREDIT', $2, $2, 200, 1, 'hold', 'hld_seed', 'f', now()
         FROM generate_series(1, 4001) AS i`,
        [a, sha('x')],
      );
      expect(await grpcError(t.client.exportProxyCasefile({ agentId: a, runId: 'run-big' }))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'proxy_run_too_large',
        details: { max_calls: 4000 },
      });
      await t.sql.query('DELETE FROM proxy_calls WHERE agent_id = $1', [a]);
    });
  });

  describe('metrics', () => {
    it('should count calls, errors, spend and latency percentiles per agent and upstream in the window', async () => {
      const a = newAgent('metrics');
      const hold = await holdOf(a, '100');
      const mandate = mandateOf(a);
      const asOf = new Date();
      offsetMs = -3 * HOUR; // recorded 3 h before as_of
      try {
        for (const latencyMs of [1000, 2000, 3000]) await record(a, { hold }, { upstream: 'a.example', cost: '1', latencyMs });
        offsetMs = -30 * 60_000; // 30 min before as_of
        for (let i = 1; i <= 10; i += 1) {
          const statusCode = i === 3 ? 500 : i === 7 ? 404 : 200;
          await record(a, { hold }, { upstream: 'a.example', cost: '0.1', latencyMs: i * 10, status: statusCode });
        }
        await record(a, { hold }, { upstream: 'b.example', cost: '0.2', latencyMs: 5, status: 400 });
        await record(a, { mandate }, { upstream: 'b.example', cost: '0.3', latencyMs: 7 });
      } finally {
        offsetMs = 0;
      }
      const metrics = (window: string, at = asOf, upstream?: string) => t.client.getProxyMetrics({ window, asOf: at, agentId: a, upstream });
      const bRow = { agentId: a, upstream: 'b.example', calls: '2', errors: '1', spend: [{ amount: '0.2', currency: 'CREDIT' }, { amount: '0.3', currency: 'USD' }],
        latencyP50Ms: 5, latencyP90Ms: 7, latencyP99Ms: 7, latencyMaxMs: 7 };

      expect(await metrics('1h')).toEqual({
        window: '1h',
        asOf,
        rows: [
          { agentId: a, upstream: 'a.example', calls: '10', errors: '2', spend: [{ amount: '1', currency: 'CREDIT' }], latencyP50Ms: 50, latencyP90Ms: 90, latencyP99Ms: 100, latencyMaxMs: 100 },
          bRow,
        ],
      });
      // 13 latencies 10…100, 1000, 2000, 3000: p50 = the 7th (70), p90 = the 12th, p99 = the 13th.
      const day = await metrics('1d');
      expect(day.rows[0]).toEqual({ agentId: a, upstream: 'a.example', calls: '13', errors: '2', spend: [{ amount: '4', currency: 'CREDIT' }],
        latencyP50Ms: 70, latencyP90Ms: 2000, latencyP99Ms: 3000, latencyMaxMs: 3000 });
      expect((await metrics('all')).rows).toEqual(day.rows);
      expect((await metrics('1h', asOf, 'b.example')).rows).toEqual([bRow]);
      // as_of before the recent calls: only the three old ones (p50 = the 2nd of 3).
      expect((await metrics('1d', new Date(asOf.getTime() - HOUR))).rows).toEqual([
        expect.objectContaining({ upstream: 'a.example', calls: '3', errors: '0', latencyP50Ms: 2000, latencyP90Ms: 3000, latencyMaxMs: 3000 }),
      ]);
      expect(await grpcError(metrics('2h'))).toMatchObject({ code: 'validation_failed', details: { field: 'window' } });
    });
  });
});
