import { canRead, type Visibility } from './access';
import { viewerOf, type Viewer } from './caller';

const operator: Viewer = { kind: 'operator', name: 'ops' };
const party: Viewer = { kind: 'agent', agentId: 'a:agent:p' };
const stranger: Viewer = { kind: 'agent', agentId: 'a:agent:s' };
const anonymous: Viewer = { kind: 'anonymous' };
const parties = ['a:agent:p', 'a:agent:q'];

describe('canRead', () => {
  const cases: Array<[Visibility, Viewer, boolean]> = [
    ['public', operator, true],
    ['public', party, true],
    ['public', stranger, true],
    ['public', anonymous, true],
    ['parties', operator, true],
    ['parties', party, true],
    ['parties', stranger, false],
    ['parties', anonymous, false],
    ['operator', operator, true],
    ['operator', party, false],
    ['operator', stranger, false],
    ['operator', anonymous, false],
  ];
  it.each(cases)('%s record, viewer %j → %s', (visibility, viewer, expected) => {
    expect(canRead(visibility, viewer, parties)).toBe(expected);
  });
});

describe('viewerOf', () => {
  it('operator token without an acting agent is the operator', () => {
    expect(viewerOf({ actor: 'operator:ops', agentId: null })).toEqual({ kind: 'operator', name: 'ops' });
  });
  it('any acting agent decides, even with the operator token', () => {
    expect(viewerOf({ actor: 'operator:ops', agentId: 'x:agent:a' })).toEqual({ kind: 'agent', agentId: 'x:agent:a' });
    expect(viewerOf({ actor: 'agent:x:agent:b', agentId: null })).toEqual({ kind: 'agent', agentId: 'x:agent:b' });
  });
  it('no caller is anonymous', () => {
    expect(viewerOf({ actor: null, agentId: null })).toEqual({ kind: 'anonymous' });
  });
});
