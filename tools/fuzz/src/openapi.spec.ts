import { operationsOf, templateParts } from './openapi';

const doc = {
  openapi: '3.1.0',
  paths: {
    '/health': { get: { responses: {} } },
    '/v1/wallets/{agent_id}/faucet': {
      post: {
        parameters: [{ in: 'path', name: 'agent_id', schema: { type: 'string', pattern: '^a$' }, example: 'a' }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['amount'] }, example: { amount: '1' } } },
        },
        security: [{ operatorToken: [] }, { agentId: [], agentTimestamp: [], agentSignature: [] }],
      },
    },
    '/v1/objects': {
      get: {
        parameters: [{ in: 'query', name: 'limit', schema: { type: 'integer' } }],
        security: [{}, { operatorToken: [] }],
      },
      parameters: [],
    },
  },
};

describe('operationsOf', () => {
  it('lists every operation with its inputs and who may call it', () => {
    const ops = operationsOf(doc);
    expect(ops.map((o) => o.key)).toEqual(['GET /health', 'POST /v1/wallets/{agent_id}/faucet', 'GET /v1/objects']);

    const [health, faucet, objects] = ops;
    expect(health.auth).toEqual({ operator: false, agent: false, anonymous: true });
    expect(health.body).toBeNull();

    expect(faucet.auth).toEqual({ operator: true, agent: true, anonymous: false });
    expect(faucet.pathParams).toEqual([{ name: 'agent_id', in: 'path', required: true, schema: { type: 'string', pattern: '^a$' }, example: 'a' }]);
    expect(faucet.body).toEqual({
      required: true,
      contents: [{ mediaType: 'application/json', schema: { type: 'object', required: ['amount'] }, example: { amount: '1' } }],
    });

    expect(objects.auth).toEqual({ operator: true, agent: false, anonymous: true });
    expect(objects.queryParams.map((p) => [p.name, p.required])).toEqual([['limit', false]]);
  });

  it('refuses a document without paths', () => {
    expect(() => operationsOf({ openapi: '3.1.0' })).toThrow(/no "paths"/);
  });
});

describe('templateParts', () => {
  it('splits literals and parameters', () => {
    expect(templateParts('/v1/contracts/{contract_id}/award/{offer_id}')).toEqual([
      { literal: '/v1/contracts/' },
      { param: 'contract_id' },
      { literal: '/award/' },
      { param: 'offer_id' },
    ]);
  });
});
