import { walletV1 } from '@exchange/proto';
import { ledgerReport } from '../src/ledger/ledger.repo';
import { agentId, fund, key, startTestWallet, type TestWallet } from './wallet-harness';

describe('wallet-ledger gRPC: CheckLedger', () => {
  let t: TestWallet;
  const a = agentId('chk-a');
  const b = agentId('chk-b');

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_check', agents: [{ agentId: a }, { agentId: b }] });
    await fund(t.client, a, '100');
    await t.client.transfer({ agentId: a, toAgentId: b, amount: '10', currency: 'CREDIT', idempotencyKey: key() });
    const { hold } = await t.client.createHold({ agentId: a, amount: '20', currency: 'CREDIT', idempotencyKey: key(), controller: 'market' });
    await t.client.settle({ agentId: a, holdId: hold!.holdId, contractId: 'c', payeeAgentId: b, amount: '15', fee: '1', idempotencyKey: key() });
    const { deposit } = await t.client.createDeposit({ agentId: b, amount: '7', currency: 'EUR', method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX, idempotencyKey: key() });
    await t.client.confirmDeposit({ agentId: b, depositId: deposit!.depositId, idempotencyKey: key() });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should find a consistent ledger after activity', async () => {
    const res = await t.client.checkLedger({});
    expect(res).toMatchObject({ ok: true, discrepancies: [], globalSums: { CREDIT: '0', EUR: '0' } });
    // faucet, transfer, hold, settle, deposit confirm = 5 entries.
    expect(res.entriesChecked).toBe('5');
    expect(Number(res.accountsChecked)).toBeGreaterThanOrEqual(7);
    expect(Number(res.postingsChecked)).toBe(2 + 2 + 2 + 4 + 2);
    expect(res.checkedAt).toBeInstanceOf(Date);
  });

  it('should report a balance changed behind the journal, then agree again once it is put back', async () => {
    const account = `${b}/CREDIT/available`;
    await t.sql.query(`UPDATE accounts SET balance = balance + 1 WHERE account_id = $1`, [account]);
    try {
      const res = await t.client.checkLedger({});
      expect(res.ok).toBe(false);
      expect(res.globalSums).toEqual({ CREDIT: '0.000001', EUR: '0' });
      expect(res.discrepancies).toEqual([
        { kind: 'balance_mismatch', subject: account, expected: '24', actual: '24.000001', detail: expect.any(String) },
        { kind: 'global_sum', subject: 'CREDIT', expected: '0', actual: '0.000001', detail: expect.any(String) },
      ]);
    } finally {
      await t.sql.query(`UPDATE accounts SET balance = balance - 1 WHERE account_id = $1`, [account]);
    }
    expect((await t.client.checkLedger({})).ok).toBe(true);
  });

  // The damage stays in an open transaction (rolled back), so the check's queries run inside it.
  it('should report an unbalanced entry and a key with two effects', async () => {
    const client = await t.sql.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(`SELECT entry_id, idempotency_scope, idempotency_key FROM journal_entries WHERE kind = 'transfer'`);
      const entry = rows[0];
      await client.query(`UPDATE postings SET amount = amount + 5 WHERE entry_id = $1 AND amount > 0`, [entry.entry_id]);
      await client.query(
        `INSERT INTO journal_entries (entry_id, kind, currency, idempotency_scope, idempotency_key, created_at) VALUES ('jrn_dup', 'transfer', 'CREDIT', $1, $2, now())`,
        [entry.idempotency_scope, entry.idempotency_key],
      );
      const report = await ledgerReport(client, new Date());
      expect(report.ok).toBe(false);
      expect(report.discrepancies.map((d) => d.kind).sort()).toEqual(['balance_mismatch', 'idempotency_key_two_effects', 'unbalanced_entry', 'unbalanced_entry']);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
