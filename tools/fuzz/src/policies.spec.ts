import type { Operation } from './openapi';
import { policyFor } from './policies';

const op = (method: string, path: string) => ({ key: `${method} ${path}`, method, path }) as Operation;

describe('policyFor', () => {
  it('runs market-integrity switches alone and switches them back', () => {
    const state = policyFor(op('POST', '/v1/market-integrity/state'));
    expect(state.exclusive).toBe(true);
    expect(state.restore('/v1/market-integrity/state')).toEqual([{ method: 'POST', target: '/v1/market-integrity/state', body: { state: 'normal', reason: 'fuzz: restore' } }]);
    const switches = policyFor(op('POST', '/v1/market-integrity/kill-switches')).restore('/v1/market-integrity/kill-switches');
    expect(switches.map((r) => (r.body as { name: string }).name)).toEqual(['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only']);
    expect(switches.every((r) => (r.body as { enabled: boolean }).enabled === false)).toBe(true);
  });

  it('unfreezes the agent named in the called path', () => {
    const freeze = policyFor(op('POST', '/v1/agents/{agent_id}/freeze'));
    expect(freeze.exclusive).toBe(false);
    expect(freeze.restore('/v1/agents/fuzz:agent:buyer/freeze')).toEqual([{ method: 'POST', target: '/v1/agents/fuzz:agent:buyer/unfreeze', body: { reason: 'fuzz: restore' } }]);
    expect(freeze.restore('/v1/agents//freeze')).toEqual([]);
  });

  it('puts an identity level back where setup left it, sandbox by default', () => {
    const policy = policyFor(op('POST', '/v1/agents/{agent_id}/identity_level'), new Map([['a:agent:rich', 'MAINNET_ATTESTED']]));
    expect(policy.restore('/v1/agents/a:agent:b/identity_level')[0].body).toEqual({ identity_level: 'SANDBOX_UNVERIFIED', reason: 'fuzz: restore' });
    expect(policy.restore('/v1/agents/a%3Aagent%3Arich/identity_level')[0]).toEqual({
      method: 'POST',
      target: '/v1/agents/a%3Aagent%3Arich/identity_level',
      body: { identity_level: 'MAINNET_ATTESTED', reason: 'fuzz: restore' },
    });
  });

  it('reinstates an artifact taken down', () => {
    const ref = `sha256:${'a'.repeat(64)}`;
    expect(policyFor(op('POST', '/v1/artifacts/{artifact_ref}/takedown')).restore(`/v1/artifacts/${ref}/takedown`)).toEqual([
      { method: 'POST', target: `/v1/artifacts/${ref}/reinstate`, body: { reason: 'fuzz: restore' } },
    ]);
  });

  it('leaves every other operation alone', () => {
    const p = policyFor(op('POST', '/v1/contracts'));
    expect(p.exclusive).toBe(false);
    expect(p.restore('/v1/contracts')).toEqual([]);
    expect(policyFor(op('GET', '/v1/market-integrity/state')).exclusive).toBe(false);
  });
});
