import { generateAgentKeys } from '@exchange/sdk';
import { agentHeaders, forgedHeaders, operatorHeaders } from './auth';

const signer = { agentId: 'fuzz:agent:a', privateKey: generateAgentKeys().privateKey };
const creds = { operatorToken: 'op-token-0123456789', signers: [signer], victimId: 'fuzz:agent:victim' };
const names = (headers: Array<[string, string]>) => headers.map(([k]) => k.toLowerCase()).sort();

describe('credentials', () => {
  it('operator: bearer token, X-Agent-Id when acting', () => {
    expect(operatorHeaders('t', null)).toEqual([['Authorization', 'Bearer t']]);
    expect(operatorHeaders('t', 'a:agent:b')).toEqual([['Authorization', 'Bearer t'], ['X-Agent-Id', 'a:agent:b']]);
  });

  it('agent: the SDK signature headers for the exact path and body', () => {
    const headers = agentHeaders(signer, 'POST', '/v1/x?y=1', Buffer.from('{}'));
    expect(names(headers)).toEqual(expect.arrayContaining(['x-agent-id', 'x-agent-signature', 'x-agent-timestamp']));
    expect(headers.find(([k]) => k.toLowerCase() === 'x-agent-id')?.[1]).toBe('fuzz:agent:a');
  });

  it('forged: each variant is wrong in its own way', () => {
    const labels = new Set(Array.from({ length: 16 }, (_, n) => forgedHeaders(n, creds, signer, 'GET', '/v1/agents', null).label));
    expect(labels.size).toBe(16);
    const victim = forgedHeaders(4, creds, signer, 'POST', '/v1/artifacts', Buffer.from('x'));
    expect(victim.label).toBe('victim id signed with a stranger key');
    expect(victim.headers.find(([k]) => k.toLowerCase() === 'x-agent-id')?.[1]).toBe('fuzz:agent:victim');
  });

  it('forged, signature only: well-formed signatures that do not verify', () => {
    const labels = Array.from({ length: 8 }, (_, n) => forgedHeaders(n, creds, signer, 'POST', '/v1/artifacts', null, new Date(), true).label);
    expect(new Set(labels)).toEqual(new Set(['victim id signed with a stranger key', 'signature over another path', 'signature over another body']));
  });
});
