import { actingAgent, idempotencyScope, isOperator, requireOperator, resolveParty, type Caller } from './caller';

const operator: Caller = { actor: 'operator:ops', agentId: null, traceId: null };
const alice: Caller = { actor: 'agent:alice', agentId: 'alice', traceId: null };

describe('caller rules', () => {
  it('should default an empty party field to the acting agent', () => {
    expect(resolveParty(alice, 'buyer_id', '')).toBe('alice');
    expect(resolveParty(alice, 'buyer_id', 'alice')).toBe('alice');
  });
  it('should refuse an empty party field without an acting agent (400 validation_failed naming the field)', () => {
    expect(() => resolveParty(operator, 'buyer_id', '')).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'buyer_id' } }));
  });
  it('should let an operator without acting agent name any party', () => {
    expect(resolveParty(operator, 'seller_id', 'bob')).toBe('bob');
  });
  it('should refuse an acting agent other than the party (403 acting_agent_mismatch)', () => {
    expect(() => resolveParty(alice, 'seller_id', 'bob')).toThrow(expect.objectContaining({ code: 'acting_agent_mismatch' }));
  });
  it('should know operators by the actor prefix', () => {
    expect(isOperator(operator)).toBe(true);
    expect(isOperator(alice)).toBe(false);
    expect(() => requireOperator(alice)).toThrow(expect.objectContaining({ code: 'operator_required' }));
    expect(() => requireOperator(operator)).not.toThrow();
  });
  it('should derive the acting agent and the idempotency scope', () => {
    expect(actingAgent(alice)).toBe('alice');
    expect(actingAgent({ actor: 'agent:carol', agentId: null, traceId: null })).toBe('carol');
    expect(actingAgent(operator)).toBeNull();
    expect(idempotencyScope(alice)).toBe('agent:alice|alice');
    expect(idempotencyScope(operator)).toBe('operator:ops|');
  });
});
