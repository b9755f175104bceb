import { buildUcpAgentHeader, parseUcpAgentHeader } from './ucp-agent';

const URL = 'https://exchange.example/.well-known/ucp';

describe('buildUcpAgentHeader', () => {
  it('writes the profile as an RFC 8941 string member', () => {
    expect(buildUcpAgentHeader(URL)).toBe(`profile="${URL}"`);
  });

  it('escapes quote and backslash, refuses what an sf-string cannot hold', () => {
    expect(buildUcpAgentHeader('https://a.example/"x"\\y')).toBe('profile="https://a.example/\\"x\\"\\\\y"');
    expect(() => buildUcpAgentHeader('https://a.example/é')).toThrow('printable ASCII');
    expect(() => buildUcpAgentHeader('https://a.example/\n')).toThrow('printable ASCII');
  });

  it('round-trips through the parser', () => {
    const tricky = 'https://a.example/p?q="1"&r=\\';
    expect(parseUcpAgentHeader(buildUcpAgentHeader(tricky))).toEqual({ profile: tricky, params: {} });
  });
});

describe('parseUcpAgentHeader', () => {
  it('reads the profile member', () => {
    expect(parseUcpAgentHeader(`profile="${URL}"`)).toEqual({ profile: URL, params: {} });
  });

  it('tolerates the conformance suite’s extra version parameter', () => {
    expect(parseUcpAgentHeader(`profile="${URL}"; version="2026-04-08"`)).toEqual({ profile: URL, params: { version: '2026-04-08' } });
    expect(parseUcpAgentHeader(`profile="${URL}";version="2026-04-08"`)).toEqual({ profile: URL, params: { version: '2026-04-08' } });
  });

  it('keeps other members and every bare item type', () => {
    expect(parseUcpAgentHeader(`  agent=buyer-bot/1.2, profile="${URL}";v=2, n=-1.5, ok=?1, flag, key=:AQID:  `)).toEqual({
      profile: URL,
      params: { agent: { token: 'buyer-bot/1.2' }, v: 2, n: -1.5, ok: true, flag: true, key: { bytes: 'AQID' } },
    });
  });

  it('joins several header lines into one dictionary, and folds key case', () => {
    expect(parseUcpAgentHeader(['a=1', `Profile="${URL}"`])).toEqual({ profile: URL, params: { a: 1 } });
  });

  it('null when missing, without a string profile, or unparsable', () => {
    for (const value of [undefined, null, '', 'agent="x"', `profile=${'https'}`, `profile="${URL}`, `profile="${URL}" junk`, 'profile="a\\x"', '=1', `profile="${URL}";=1`, 'profile=(a b)']) {
      expect([value, parseUcpAgentHeader(value)]).toEqual([value, null]);
    }
  });
});
