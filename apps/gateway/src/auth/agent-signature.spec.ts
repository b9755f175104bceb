import { createHash } from 'node:crypto';
import {
  AGENT_SIGNATURE_WINDOW_SECONDS,
  agentRequestSigningMessage,
  checkAgentTimestamp,
  isValidAgentNonce,
  readAgentSignatureHeaders,
} from './agent-signature';

describe('readAgentSignatureHeaders', () => {
  it('should see no agent signature when none of timestamp, nonce and signature is sent', () => {
    expect(readAgentSignatureHeaders({ 'x-agent-id': 'a:agent:b' })).toEqual({ kind: 'none' });
    expect(readAgentSignatureHeaders({})).toEqual({ kind: 'none' });
  });

  it('should return all four headers when complete', () => {
    expect(
      readAgentSignatureHeaders({ 'x-agent-id': 'a:agent:b', 'x-agent-timestamp': '1', 'x-agent-nonce': 'n', 'x-agent-signature': 's' }),
    ).toEqual({ kind: 'complete', agentId: 'a:agent:b', timestamp: '1', nonce: 'n', signature: 's' });
  });

  it('should name what is missing from an incomplete set', () => {
    expect(readAgentSignatureHeaders({ 'x-agent-signature': 's' })).toEqual({
      kind: 'incomplete',
      missing: ['X-Agent-Id', 'X-Agent-Timestamp', 'X-Agent-Nonce'],
    });
    expect(readAgentSignatureHeaders({ 'x-agent-id': 'a:agent:b', 'x-agent-timestamp': '1', 'x-agent-signature': 's' })).toEqual({
      kind: 'incomplete',
      missing: ['X-Agent-Nonce'],
    });
  });
});

describe('checkAgentTimestamp', () => {
  const now = 1_800_000_000_000;
  it('should accept the window edges and refuse beyond them', () => {
    expect(checkAgentTimestamp(String(now / 1000 - AGENT_SIGNATURE_WINDOW_SECONDS), now)).toBe('ok');
    expect(checkAgentTimestamp(String(now / 1000 + AGENT_SIGNATURE_WINDOW_SECONDS), now)).toBe('ok');
    expect(checkAgentTimestamp(String(now / 1000 - AGENT_SIGNATURE_WINDOW_SECONDS - 1), now)).toBe('out_of_window');
    expect(checkAgentTimestamp(String(now / 1000 + AGENT_SIGNATURE_WINDOW_SECONDS + 1), now)).toBe('out_of_window');
  });

  it('should refuse anything but decimal seconds', () => {
    for (const bad of ['', '-5', '1.5', '1e9', ' 1800000000', '1800000000000000']) {
      expect(checkAgentTimestamp(bad, now)).toBe('malformed');
    }
  });
});

describe('isValidAgentNonce', () => {
  it('should accept 16–64 URL-safe characters only', () => {
    expect(isValidAgentNonce('abcdefghijklmnop')).toBe(true);
    expect(isValidAgentNonce('A-_9'.repeat(16))).toBe(true);
    for (const bad of ['abcdefghijklmno', 'A-_9'.repeat(16) + 'x', 'abcdefghijklmno=', 'abcdefghijklmno+', 'abcdefghijklmnó', 'abcdefgh ijklmno']) {
      expect(isValidAgentNonce(bad)).toBe(false);
    }
  });
});

describe('agentRequestSigningMessage', () => {
  const NONCE = 'n-0123456789abcdef';
  it('should be the canonical JSON of agent_id, method, path, timestamp, nonce and the body hash', () => {
    const body = Buffer.from('{"reason":"x"}');
    const message = agentRequestSigningMessage({ agentId: 'a:agent:b', method: 'post', pathWithQuery: '/v1/a?b=1', timestamp: '17', nonce: NONCE, rawBody: body });
    const bodyHash = createHash('sha256').update(body).digest('hex');
    expect(Buffer.from(message).toString('utf8')).toBe(
      `{"agent_id":"a:agent:b","body_sha256":"${bodyHash}","method":"POST","nonce":"${NONCE}","path":"/v1/a?b=1","timestamp":"17"}`,
    );
  });

  it('should hash the empty string when there is no body', () => {
    const message = agentRequestSigningMessage({ agentId: 'a:agent:b', method: 'GET', pathWithQuery: '/x', timestamp: '1', nonce: NONCE, rawBody: undefined });
    expect(Buffer.from(message).toString('utf8')).toContain(
      '"body_sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
    );
  });
});
