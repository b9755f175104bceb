import { findFreePort } from '@exchange/db';
import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { createTestDatabase, startFakeIdentity, type FakeIdentity, type TestDatabase } from '@exchange/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { repoRoot, startWalletLedgerProcess, type WalletLedgerProcess } from './wallet-ledger-process';

// `npm run ledger:check -- --grpc` against a real wallet-ledger process: consistent books exit 0,
// a balance changed behind the service's back exits 1 with the discrepancy, no service exits 2.

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function ledgerCheck(args: string[]): Promise<CliRun> {
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'tools/ledger-check/main.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, WALLET_LEDGER_GRPC_URL: '', EXCHANGE_URL: '', OPERATOR_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('ledger:check against a running wallet-ledger (gRPC)', () => {
  let db: TestDatabase;
  let identity: FakeIdentity;
  let ledger: WalletLedgerProcess | undefined;
  let client: PromiseClient<typeof walletV1.WalletLedgerServiceService>;
  let sql: pg.Pool;
  const run = randomBytes(3).toString('hex');
  const alice = `lc-${run}:agent:alice`;
  const bob = `lc-${run}:agent:bob`;

  beforeAll(async () => {
    db = await createTestDatabase('ledger_check');
    identity = await startFakeIdentity([{ agentId: alice }, { agentId: bob }]);
    ledger = await startWalletLedgerProcess({ databaseUrl: db.url, identityAddress: identity.address, port: await findFreePort() });
    client = createServiceClient(walletV1.WalletLedgerServiceService, ledger.address, { defaultDeadlineMs: 30_000 });
    sql = new pg.Pool({ connectionString: db.url, max: 1 });
    sql.on('error', () => undefined);
    await client.faucet({ agentId: alice, amount: '100', currency: 'CREDIT', category: 'lc', idempotencyKey: 'f1' });
    await client.transfer({ agentId: alice, toAgentId: bob, amount: '30', currency: 'CREDIT', memo: undefined, idempotencyKey: 't1' });
    await client.createHold({ agentId: alice, amount: '5', currency: 'CREDIT', expiresAt: undefined, reference: undefined, idempotencyKey: 'h1' });
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await ledger?.stop();
    await sql?.end();
    await identity?.close();
    await db?.drop();
  });

  it('exits 0 and reports what it checked when the books are consistent', async () => {
    const json = await ledgerCheck(['--grpc', ledger!.address, '--json']);
    expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ consistent: true, ok: true, global_sums: { CREDIT: '0' }, discrepancies: [], unbalanced_currencies: [] });
    // faucet, transfer and hold: three entries of two postings each.
    expect(report).toMatchObject({ entries_checked: 3, postings_checked: 6 });
    expect(report.accounts_checked).toBeGreaterThanOrEqual(4);

    const text = await ledgerCheck(['--grpc', ledger!.address]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Result: OK, the ledger is consistent');
  }, 60_000);

  it('exits 1 and names the discrepancy when a balance no longer matches its postings', async () => {
    // Tamper with bob's available balance directly in the database, as a bug or an operator might.
    const changed = await sql.query(`UPDATE accounts SET balance = balance + 1000000 WHERE owner_id = $1 AND kind = 'available'`, [bob]);
    expect(changed.rowCount).toBe(1);
    try {
      const json = await ledgerCheck(['--grpc', ledger!.address, '--json']);
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout);
      expect(report.consistent).toBe(false);
      expect(report.discrepancies.map((d: { kind: string }) => d.kind)).toContain('balance_mismatch');
      const mismatch = report.discrepancies.find((d: { kind: string }) => d.kind === 'balance_mismatch');
      expect(mismatch.subject).toBe(`${bob}/CREDIT/available`);
      expect(mismatch.expected).not.toBe(mismatch.actual);

      const text = await ledgerCheck(['--grpc', ledger!.address]);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(/\d+\. balance_mismatch /);
      expect(text.stdout).toContain('Result: FAILED');
    } finally {
      await sql.query(`UPDATE accounts SET balance = balance - 1000000 WHERE owner_id = $1 AND kind = 'available'`, [bob]);
    }
    expect((await ledgerCheck(['--grpc', ledger!.address])).code).toBe(0);
  }, 60_000);

  it('exits 2 when the service is gone', async () => {
    const address = ledger!.address;
    await ledger!.stop();
    ledger = undefined;
    const res = await ledgerCheck(['--grpc', address, '--timeout', '5000']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`CheckLedger at ${address} failed`);
  }, 60_000);
});
