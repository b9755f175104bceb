import { endpointKey, pathShape, sameEndpoint } from './path-template';

describe('path templates', () => {
  it('should treat {id} and {agent_id} as the same parameter position', () => {
    expect(sameEndpoint({ method: 'GET', path: '/v1/agents/{id}' }, { method: 'GET', path: '/v1/agents/{agent_id}' })).toBe(true);
    expect(sameEndpoint({ method: 'post', path: '/v1/agents/{id}/keys/{k}/revoke' }, { method: 'POST', path: '/v1/agents/{agent_id}/keys/{pubkey}/revoke' })).toBe(true);
  });

  it('should accept Fastify :param syntax and trailing slashes', () => {
    expect(pathShape('/v1/agents/:agent_id/')).toBe('/v1/agents/{}');
    expect(pathShape('/')).toBe('/');
  });

  it('should tell apart different methods, lengths and literal segments', () => {
    expect(sameEndpoint({ method: 'GET', path: '/v1/agents/{id}' }, { method: 'POST', path: '/v1/agents/{id}' })).toBe(false);
    expect(sameEndpoint({ method: 'GET', path: '/v1/agents' }, { method: 'GET', path: '/v1/agents/{id}' })).toBe(false);
    expect(sameEndpoint({ method: 'POST', path: '/v1/disputes/{id}/resolve' }, { method: 'POST', path: '/v1/disputes/{id}/close' })).toBe(false);
    expect(endpointKey({ method: 'get', path: '/v1/wallets/{agent_id}' })).toBe('GET /v1/wallets/{}');
  });
});
