import { CommerceHttp } from './commerce-http';
import { MarketHttp } from './market-http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// A checkout's origin through the whole exchange: commerce asks the real market (contract parties)
// and the real workflows (run owner), which starts after commerce in the in-process launcher.
let stack: Stack;
let c: CommerceHttp;
let m: MarketHttp;
let buyer: RawAgent;
let stranger: RawAgent;
let signer: RawAgent;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
  buyer = await c.newAgent('origin-buyer');
  stranger = await c.newAgent('origin-stranger');
  signer = await c.newAgent('origin-principal');
});

afterAll(async () => {
  await stack?.stop();
});

describe('POST /v1/commerce/ucp/checkout/create with origin', () => {
  it('accepts the contract buyer, refuses a stranger, and answers 404 for an unknown run', async () => {
    const contract = await m.openContract(buyer);
    const mandate = await c.createMandate(signer, buyer, { perTransaction: '100', total: '300' });
    const body = c.checkoutBody(mandate.mandate_id, [['bouquet_roses', 1]], { origin: { contract_id: contract.contract_id } });
    const created = await c.expectStatus(c.createCheckout(buyer, body), 201);
    expect(created.origin).toEqual({ contract_id: contract.contract_id });

    const strangerMandate = await c.createMandate(signer, stranger, { perTransaction: '100', total: '300' });
    const refused = await c.createCheckout(stranger, c.checkoutBody(strangerMandate.mandate_id, [['bouquet_roses', 1]], { origin: { contract_id: contract.contract_id } }));
    expect([refused.status, refused.body.code]).toEqual([403, 'origin_not_allowed']);

    const unknownRun = await c.createCheckout(buyer, c.checkoutBody(mandate.mandate_id, [['bouquet_roses', 1]], { origin: { workflow_run_id: 'run_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e' } }));
    expect([unknownRun.status, unknownRun.body.code]).toEqual([404, 'workflow_run_not_found']);
  });
});
