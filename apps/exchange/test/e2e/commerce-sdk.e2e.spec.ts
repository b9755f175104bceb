import { signApproval, signMandate } from '@exchange/sdk';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { MERCHANT } from './commerce-http';
import { canonicalJson, RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// The quickstart's delegated-checkout example (libs/sdk/examples/delegated-checkout.ts) run as a
// user would, against a fresh stack: exit 0, 63 USD paid with a valid receipt and casefile, 13 USD
// refunded by an approved case with a valid refund receipt. And
// the SDK's mandate and approval signers agree byte for byte with signatures made from /skill.md's
// rule alone (commerce-http.ts).

let stack: Stack;
const repoRoot = resolve(__dirname, '../../../..');

beforeAll(async () => {
  stack = await bootStack({ shared: true });
});

afterAll(async () => {
  await stack?.stop();
});

function runExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'libs/sdk/examples/delegated-checkout.ts'], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('SDK delegated-checkout example (quickstart)', () => {
  it('buys 63 USD of flowers under an intent and a mandate (approval, receipt, casefile verified), then gets 13 USD refunded through a case (exit 0)', async () => {
    const run = await runExample({ EXCHANGE_URL: stack.baseUrl, OPERATOR_TOKEN: stack.operatorToken });
    if (run.code !== 0) throw new Error(`example exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    expect(run.stdout).toMatch(/approval pending/);
    expect(run.stdout).toMatch(/purchase deal_\S+: 63 USD to sandbox-merchant\.local, receipt signature valid/);
    expect(run.stdout).toMatch(/casefile VALID/);
    // After the purchase: a 13 USD refund case approved by the operator, credited with a signed receipt.
    expect(run.stdout).toMatch(/case \S+ approved: 13 USD credited, refund receipt signature valid/);
    expect(run.stdout).toMatch(/timeline: session\.created → .*receipt.*feedback.*case\.opened.*case\.refund_credited/);
    // 200 deposited − 63 paid + 13 refunded.
    expect(run.stdout).toMatch(/shopper USD available: 150\n/);
  });

  it('signMandate and signApproval (SDK) equal signatures made from the documented payloads', () => {
    const signer = new RawAgent('doc:agent:signer');
    const terms = {
      signerAgentId: signer.agentId,
      agentId: 'doc:agent:shopper',
      scope: { merchants: [MERCHANT], categories: [], skus: ['pot_ceramic'] },
      limits: { perTransaction: '10.5', total: '100', currency: 'USD' },
      expiresAt: '2026-12-31T23:59:59+01:00',
    };
    const documented = {
      signer_agent_id: terms.signerAgentId,
      agent_id: terms.agentId,
      scope: terms.scope,
      limits: { per_transaction: '10.5', total: '100', currency: 'USD' },
      expires_at: '2026-12-31T22:59:59.000Z',
    };
    expect(signMandate(terms, signer.seed)).toBe(signer.signBase64(canonicalJson(documented)));
    const session = { commerceSessionId: 'cs_1', decision: 'approve' as const, approverId: signer.agentId, total: '63', currency: 'USD' };
    expect(signApproval(session, signer.seed)).toBe(
      signer.signBase64(canonicalJson({ commerce_session_id: 'cs_1', decision: 'approve', approver_id: signer.agentId, total: '63', currency: 'USD' })),
    );
  });
});
