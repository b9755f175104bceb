import { ExchangeClient, signVerificationReport } from '@exchange/sdk';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { MarketHttp, signReport } from './market-http';
import { bootStack, type Stack } from './stack';

// The README's end-to-end example (libs/sdk/examples/buy-and-sell.ts) run as a user would, against
// a fresh stack: registration → faucet → verifier → listing → contract → offer → award → result →
// signed pass → settled → receipt verified with /health's key; exit code 0 and the money as the
// fee formula says. Plus the SDK's report signer agrees byte for byte with a signer written from
// the contract's rule alone (market-http.ts).

let stack: Stack;
let m: MarketHttp;
const repoRoot = resolve(__dirname, '../../../..');

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

function runExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'libs/sdk/examples/buy-and-sell.ts'], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('SDK end-to-end example (README)', () => {
  it('runs buy-and-sell.ts to a settled contract with a verified receipt (exit 0)', async () => {
    const run = await runExample({ EXCHANGE_URL: stack.baseUrl, OPERATOR_TOKEN: stack.operatorToken });
    if (run.code !== 0) throw new Error(`example exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    expect(run.stdout).toMatch(/contract settled; receipt rcpt_\S+: 80 CREDIT \(fee 0\.8\), signature valid/);
    // Buyer 150 − 80, seller 80 − 0.8.
    const balances = JSON.parse(/balances: (.*)/.exec(run.stdout)![1]) as Record<string, string>;
    expect(Object.values(balances).sort()).toEqual(['70', '79.2']);
  });

  it('signVerificationReport (SDK) equals the hand-rolled canonical signature, and the market accepts it', async () => {
    const { buyer, contractId, result } = await m.delivered({ funds: '10', price: '10', contract: { budget: { amount: '10', currency: 'CREDIT' } } });
    const checks = [{ name: 'b', ok: true, detail: 'ünïcödé "quoted"' }, { name: 'a', ok: false }];
    const sdkSig = signVerificationReport({ verifierId: buyer.agentId, resultId: result.result_id, verdict: 'pass', score: 0.1, checks }, buyer.seed);
    const ownSig = signReport(buyer.seed, { verifier_id: buyer.agentId, result_id: result.result_id, verdict: 'pass', score: 0.1, checks });
    expect(sdkSig).toBe(ownSig);
    const client = new ExchangeClient({ baseUrl: stack.baseUrl, agent: { agentId: buyer.agentId, privateKey: buyer.seed } });
    const report = await client.contracts.verify(contractId, { verifierId: buyer.agentId, resultId: result.result_id, verdict: 'pass', score: 0.1, checks, signature: sdkSig });
    expect(report).toMatchObject({ verdict: 'pass', score: 0.1, checks });
    expect((await m.contract(contractId)).status).toBe('settled');
  });
});
