import { listOwner, readable, requireCreator } from './access';

const agent = (id: string) => ({ agentId: id, operator: false });
const operator = { agentId: null, operator: true };

describe('run access', () => {
  it('lets an agent create only its own runs, the operator any', () => {
    expect(() => requireCreator('a', agent('a'))).not.toThrow();
    expect(() => requireCreator('a', operator)).not.toThrow();
    expect(() => requireCreator('a', agent('b'))).toThrow(expect.objectContaining({ code: 'acting_agent_mismatch' }));
    expect(() => requireCreator('a', { agentId: null, operator: false })).toThrow(expect.objectContaining({ code: 'acting_agent_mismatch' }));
  });

  it("answers 404 for another agent's run", () => {
    expect(readable({ ownerAgentId: 'a' }, 'run_1', agent('a'))).toEqual({ ownerAgentId: 'a' });
    expect(readable({ ownerAgentId: 'a' }, 'run_1', operator)).toEqual({ ownerAgentId: 'a' });
    expect(() => readable({ ownerAgentId: 'a' }, 'run_1', agent('b'))).toThrow(expect.objectContaining({ code: 'workflow_run_not_found' }));
    expect(() => readable(null, 'run_1', operator)).toThrow(expect.objectContaining({ code: 'workflow_run_not_found' }));
  });

  it('pins an agent list to itself and refuses another owner filter', () => {
    expect(listOwner(agent('a'), undefined)).toBe('a');
    expect(listOwner(operator, undefined)).toBeUndefined();
    expect(listOwner(operator, 'b')).toBe('b');
    expect(() => listOwner(agent('a'), 'b')).toThrow(expect.objectContaining({ code: 'acting_agent_mismatch' }));
  });
});
