import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startHarness, type Harness } from './harness';

// /openapi.json: OpenAPI 3.1, every route present with operationId, summary, tags, security and
// every error response referencing the one Problem schema; openapi-dump prints the same document.

let h: Harness;
let doc: any;

beforeAll(async () => {
  h = await startHarness();
  const res = await h.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  doc = JSON.parse(res.body);
});

afterAll(async () => {
  await h.close();
});

const EXPECTED: Array<[string, string, string[]]> = [
  ['post', '/v1/agents', ['201', '400', '401', '403', '409', '413', '415', '429', '503']],
  ['get', '/v1/agents', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/agents/{agent_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/agents/{agent_id}/identity_level', ['200', '400', '401', '403', '404', '409', '413', '429', '503']],
  ['get', '/v1/agents/{agent_id}/identity_transitions', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/agents/{agent_id}/keys/{pubkey}/revoke', ['200', '400', '401', '403', '404', '409', '413', '429', '503']],
  ['post', '/v1/agents/{agent_id}/freeze', ['200', '400', '401', '403', '404', '409', '413', '429', '503']],
  ['post', '/v1/agents/{agent_id}/unfreeze', ['200', '400', '401', '403', '404', '409', '413', '429', '503']],
  ['get', '/v1/wallets/{agent_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/faucet', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/transfer', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/holds', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/holds/{hold_id}/release', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/holds/{hold_id}/consume', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/deposits', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/wallets/{agent_id}/deposits', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/deposits/{deposit_id}/confirm', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/deposits/{deposit_id}/expire', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/payout_destinations', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/wallets/{agent_id}/payout_destinations', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/withdrawals', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/wallets/{agent_id}/withdrawals/{withdrawal_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/wallets/{agent_id}/withdrawals/{withdrawal_id}/cancel', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/receipts/{receipt_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/contracts', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/contracts', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/contracts/{contract_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/contracts/{contract_id}/cancel', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/contracts/{contract_id}/receipt', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/contracts/{contract_id}/verification', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/listings', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/listings', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/listings/{listing_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/contracts/{contract_id}/offers', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/contracts/{contract_id}/offers', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/offers/{offer_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/offers/{offer_id}/withdraw', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/contracts/{contract_id}/award/{offer_id}', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/contracts/{contract_id}/results', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/contracts/{contract_id}/results', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/results/{result_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/contracts/{contract_id}/disputes', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/contracts/{contract_id}/disputes', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/disputes/{dispute_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/disputes/{dispute_id}/resolve', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/verifiers', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/verifiers', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/verifier-listings', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/verifier-listings', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/contracts/{contract_id}/verify', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/telemetry/verification', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/objects', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['get', '/v1/objects/{object_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/objects', ['200', '400', '401', '403', '429', '503']],
  ['post', '/v1/artifacts', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['get', '/v1/artifacts/{artifact_ref}', ['200', '400', '401', '403', '404', '429', '451', '503']],
  ['get', '/v1/artifacts/{artifact_ref}/envelope', ['200', '400', '401', '403', '404', '429', '451', '503']],
  ['post', '/v1/artifacts/{artifact_ref}/acks', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['get', '/v1/artifacts/{artifact_ref}/receipts', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/artifacts/{artifact_ref}/takedown', ['200', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['post', '/v1/artifacts/{artifact_ref}/reinstate', ['200', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['post', '/v1/attestations/query', ['200', '400', '401', '403', '413', '415', '429', '503']],
  ['post', '/v1/attestations/export', ['200', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['post', '/v1/receipts/export', ['200', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['post', '/v1/casefiles/export', ['200', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['post', '/v1/casefiles/verify', ['200', '400', '413', '415', '429', '503']],
  ['post', '/ui/casefile/verify', ['200', '400', '413', '415', '429', '503']],
  ['post', '/v1/party_alias_tokens/mint', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['post', '/v1/identity_reveals/mint', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '429', '503']],
  ['get', '/v1/party_alias_tokens/{object_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/identity_reveals/{object_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/ledger/check', ['200', '401', '403', '429', '503']],
  ['get', '/health', ['200', '503']],
  ['get', '/skill.md', ['200', '429']],
  ['get', '/quickstart.md', ['200', '429']],
  ['get', '/v1/market-integrity/state', ['200', '400', '401', '403', '429', '503']],
  ['post', '/v1/market-integrity/state', ['200', '400', '401', '403', '409', '429', '503']],
  ['post', '/v1/market-integrity/kill-switches', ['200', '400', '401', '403', '409', '429', '503']],
  ['post', '/v1/market-integrity/erroneous-clear', ['200', '400', '401', '403', '404', '409', '429', '503']],
  ['get', '/v1/market-integrity/audit', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/reputation/{agent_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/reputation/verifier/{verifier_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/recommendations/contracts/{contract_id}/sellers', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/recommendations/sellers/{seller_id}/contracts', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/price-index', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/task-tape', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/contract-templates', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/contract-templates/{template_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/work-product-templates', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/work-product-templates/{template_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/fixtures', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/fixtures/sellers', ['200', '400', '401', '403', '429', '503']],
  ['post', '/v1/coordination/threads', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/coordination/threads', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/coordination/threads/{thread_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/coordination/threads/{thread_id}/posts', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/coordination/threads/{thread_id}/posts', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/contracts/{contract_id}/buyer-alias', ['200', '400', '401', '403', '404', '409', '422', '429', '503']],
  ['get', '/v1/contracts/resale-lineage/review-decisions', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/contracts/resale-lineage/review-decisions/{decision_ref}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/contracts/resale-lineage/review-decisions/{decision_ref}', ['200', '400', '401', '403', '404', '409', '422', '429', '503']],
  ['get', '/.well-known/ucp', ['200', '429', '503']],
  ['get', '/v1/commerce/ucp/merchants/{merchant_domain}/profile', ['200', '400', '401', '403', '422', '424', '429', '502', '503', '504']],
  ['post', '/v1/commerce/ucp/negotiate', ['200', '400', '401', '403', '413', '415', '422', '424', '429', '503']],
  ['post', '/v1/commerce/ucp/checkout/create', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '424', '429', '502', '503', '504']],
  ['get', '/v1/commerce/ucp/checkout/{commerce_session_id}', ['200', '400', '401', '403', '404', '429', '503', '502', '504']],
  ['post', '/v1/commerce/ucp/checkout/{commerce_session_id}/update', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '424', '429', '502', '503', '504']],
  ['post', '/v1/commerce/ucp/checkout/{commerce_session_id}/complete', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '424', '429', '502', '503', '504']],
  ['post', '/v1/commerce/ucp/checkout/{commerce_session_id}/cancel', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '424', '429', '502', '503', '504']],
  ['post', '/v1/commerce/ucp/checkout/{commerce_session_id}/approval', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/commerce/ucp/checkout/{commerce_session_id}/artifacts', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/commerce/ucp/checkout/{commerce_session_id}/discount', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '424', '429', '502', '503', '504']],
  ['post', '/v1/commerce/ucp/checkout/{commerce_session_id}/casefile/export', ['200', '400', '401', '403', '404', '409', '429', '503']],
  ['post', '/v1/commerce/ucp/checkout/{commerce_session_id}/casefile/verify', ['200', '400', '401', '403', '404', '409', '429', '503']],
  ['post', '/v1/commerce/ucp/webhooks/verify', ['200', '400', '401', '403', '413', '415', '429', '503']],
  ['post', '/v1/commerce/ucp/webhooks/orders', ['200', '400', '401', '413', '429', '503']],
  ['post', '/v1/mandates', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/mandates', ['200', '400', '401', '403', '429', '503']],
  ['get', '/v1/mandates/{mandate_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/mandates/{mandate_id}/autonomy', ['200', '400', '401', '403', '404', '429', '503']],
  ['put', '/v1/mandates/{mandate_id}/autonomy', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/mandates/{mandate_id}/status', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/commerce/intents/create', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/commerce/feedback/record', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/post-purchase/cases', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/post-purchase/cases/{case_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/post-purchase/cases/{case_id}', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/post-purchase/cases/{case_id}/events', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/commerce/shadow/compare', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/commerce/transparency/rollups/monthly', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/commerce/transparency/rollups/spend-savings', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/commerce/transparency/purchases/{commerce_session_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/purchases/{deal_id}/timeline', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/workflows/runs', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/workflows/runs', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/workflows/runs/{workflow_run_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/workflows/runs/{workflow_run_id}/contracts', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/workflows/runs/{workflow_run_id}/export', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/workflows/tasks', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/workflows/tasks/subscriptions', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/workflows/tasks/subscriptions/{subscription_id}/events', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/workflows/tasks/subscriptions/{subscription_id}/events/consume', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/telemetry/matching-signals', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/telemetry/categories', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/category/{tag}', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/events/public', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/events/operator', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/events/operator/export', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/contracts/{contract_id}/timeline', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/contracts/{contract_id}/timeline/export', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/reports/weekly', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/rollups/market-integrity', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/rollups/bytes-to-atoms', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/telemetry/rollups/coordination', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/v1/metrics/outcomes', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/meter_events/ingest', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/meter_events/{object_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/meter_epoch_tables', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/meter_epoch_tables/{object_id}', ['200', '400', '401', '403', '404', '429', '503']],
  ['post', '/v1/billing/projections', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/billing/projections/attach', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/billing/receipts/emit', ['200', '201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/billing/reconciliation', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/gateway/proxy/calls', ['201', '400', '401', '402', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['post', '/v1/gateway/casefiles/export', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503']],
  ['get', '/v1/gateway/metrics', ['200', '400', '401', '403', '404', '429', '503']],
  ['get', '/openapi.json', ['200', '429']],
  ['get', '/api-reference', ['200']],
];

describe('GET /openapi.json', () => {
  it('should be OpenAPI 3.1 with info, servers, tags and the four security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Agent Exchange API', version: expect.any(String) });
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual([
      'Agents',
      'Wallets',
      'Receipts',
      'Contracts',
      'Listings',
      'Offers',
      'Results',
      'Disputes',
      'Verification',
      'Market integrity',
      'Insights',
      'Catalog',
      'Coordination',
      'Governance',
      'Ledger',
      'Health',
      'Docs',
    ]);
    expect(doc.components.securitySchemes).toEqual({
      operatorToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      agentId: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Agent-Id' }),
      agentTimestamp: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Agent-Timestamp' }),
      agentNonce: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Agent-Nonce' }),
      agentSignature: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Agent-Signature' }),
    });
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status', 'detail', 'code', 'request_id']);
  });

  it('should list exactly the routes of the gateway (and no swagger-ui internals)', () => {
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m} ${path}`));
    expect(listed.sort()).toEqual(EXPECTED.map(([m, p]) => `${m} ${p}`).sort());
  });

  it.each(EXPECTED)('should describe %s %s fully', (method, path, statuses) => {
    const op = doc.paths[path][method];
    expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    expect(op.summary.length).toBeGreaterThan(5);
    expect(op.tags).toHaveLength(1);
    expect(Array.isArray(op.security)).toBe(true);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(statuses));
    for (const [status, response] of Object.entries<any>(op.responses)) {
      expect(response.description).not.toBe('Default Response');
      if (Number(status) >= 400 && !(path === '/health' && status === '503')) {
        expect(response.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
      }
    }
    if (method === 'post' && path === '/ui/casefile/verify') {
      // The one binary body: a .tar.gz archive.
      expect(Object.keys(op.requestBody.content)).toEqual(expect.arrayContaining(['application/gzip', 'application/octet-stream']));
    } else if (method === 'post' && path === '/v1/commerce/ucp/webhooks/orders') {
      // The merchant's order entity, taken as raw bytes (it is signed over them).
      expect(Object.keys(op.requestBody.content)).toEqual(['application/json']);
    } else if (method === 'post' || method === 'put') {
      const media = op.requestBody.content['application/json'];
      expect(media.schema.additionalProperties).toBe(false);
      expect(media.example).toEqual(expect.any(Object));
    }
  });

  it('should give an example for every success response', () => {
    for (const [method, path] of EXPECTED) {
      const ok = Object.entries<any>(doc.paths[path][method].responses).find(([status]) => status.startsWith('2'))![1];
      const [mediaType, media] = Object.entries<any>(ok.content)[0];
      if (!mediaType.includes('json')) continue; // Markdown and HTML documents
      if (mediaType === 'application/x-ndjson') {
        // JSONL exports: the example is the text, each line a JSON object.
        expect({ route: `${method} ${path}`, lines: String(media.example).trim().split('\n').map((l) => typeof JSON.parse(l)) }).toEqual({ route: `${method} ${path}`, lines: expect.arrayContaining(['object']) });
        continue;
      }
      expect({ route: `${method} ${path}`, example: media.example ?? media.schema.examples?.[0] }).toEqual({
        route: `${method} ${path}`,
        example: expect.any(Object),
      });
    }
  });

  it('should give operationIds that are unique', () => {
    const ids = EXPECTED.map(([m, p]) => doc.paths[p][m].operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should resolve every $ref inside the document', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const pointer = ref.slice(8, -1);
      expect(pointer.startsWith('#/')).toBe(true);
      const target = pointer
        .slice(2)
        .split('/')
        .reduce((node: any, key) => node?.[key], doc);
      expect(target).toBeDefined();
    }
  });

  it('should document the limit parameter bounds', () => {
    const limit = doc.paths['/v1/agents'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200 } });
  });
});

describe('openapi-dump', () => {
  it('should print the same document to stdout without any service running', async () => {
    const root = join(__dirname, '../../..');
    const { stdout } = await promisify(execFile)(process.execPath, [require.resolve('tsx/cli'), 'apps/gateway/src/openapi-dump.ts'], {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '' },
      maxBuffer: 16 * 1024 * 1024,
    });
    const dumped = JSON.parse(stdout);
    expect(dumped.paths).toEqual(doc.paths);
    expect(dumped.openapi).toBe('3.1.0');
  }, 60_000);
});
