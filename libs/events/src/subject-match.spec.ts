import { subjectMatches } from './subject-match';

describe('subjectMatches', () => {
  it.each([
    ['exchange.>', 'exchange.identity.agent.registered', true],
    ['exchange.>', 'exchange', false],
    ['exchange.identity.agent.*', 'exchange.identity.agent.frozen', true],
    ['exchange.identity.agent.*', 'exchange.identity.agent.key.revoked', false],
    ['exchange.*.agent.frozen', 'exchange.identity.agent.frozen', true],
    ['exchange.identity.agent.frozen', 'exchange.identity.agent.frozen', true],
    ['exchange.identity.agent.frozen', 'exchange.identity.agent.unfrozen', false],
    ['exchange.identity', 'exchange.identity.agent', false],
  ])('%s vs %s → %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});
