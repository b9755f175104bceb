import { readFileSync } from 'node:fs';
import { ERROR_CODES, errorCodeInfo, renderErrorTable } from '@exchange/platform';
import { isListed, scanThrownCodes, SKILL_MD, withErrorTable } from './error-docs';

describe('the one list of error codes', () => {
  const thrown = scanThrownCodes();

  it('finds the codes the services and the gateway throw (the scan is not blind)', () => {
    const codes = new Set(thrown.map((t) => t.code));
    expect(codes.size).toBeGreaterThan(100);
    // One per pattern: a helper, notFound, invalidState, problem(), { code }, a template, an error class.
    for (const code of ['pubkey_in_use', 'contract_not_found', 'invalid_state', 'agent_nonce_reused', 'bad_url', 'kill_switch:${name}', 'casefile_unreadable']) {
      expect(codes).toContain(code);
    }
  });

  it('lists every code thrown in apps/*/src and libs/*/src', () => {
    const missing = thrown.filter((t) => !isListed(t.code)).map((t) => `${t.code} (${t.file}:${t.line})`);
    expect(missing).toEqual([]);
  });

  it('lists no code that nothing throws any more', () => {
    const codes = new Set(thrown.map((t) => t.code));
    const stale = Object.keys(ERROR_CODES).filter((key) => {
      const family = key.indexOf('<');
      return family < 0 ? !codes.has(key) : ![...codes].some((c) => c.startsWith(key.slice(0, family)));
    });
    expect(stale).toEqual([]);
  });

  it('gives every code a status and a one-line meaning', () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      expect({ code, ok: /^[a-z][a-z0-9_]*(:?<[a-z]+>)?$/.test(code) }).toEqual({ code, ok: true });
      expect(info.status).toBeGreaterThanOrEqual(400);
      expect(info.status).toBeLessThan(600);
      expect(info.meaning).not.toMatch(/\n/);
      expect(info.meaning.length).toBeGreaterThan(5);
    }
    expect(errorCodeInfo('kill_switch:withdrawals')).toMatchObject({ key: 'kill_switch:<name>', status: 503 });
    expect(errorCodeInfo('hold_controlled_by_market')).toMatchObject({ status: 403 });
    expect(errorCodeInfo('kill_switch:')).toBeUndefined();
    expect(errorCodeInfo('no_such_code')).toBeUndefined();
  });
});

describe('/skill.md error table', () => {
  const skill = readFileSync(SKILL_MD, 'utf8');

  it('is the one generated from the list (npm run docs:errors writes it)', () => {
    expect(withErrorTable(skill)).toBe(skill);
  });

  it('has a row per public code, with its status, and none for internal ones', () => {
    const table = renderErrorTable();
    expect(skill).toContain(table);
    expect(table).toContain('| 400 | `invalid_cursor` |');
    expect(table).toContain('| 409 | `primary_key_revocation` |');
    expect(table).toContain('| 403 | `identity_level_not_allowed` |');
    expect(table).toContain('| 503 | `kill_switch:<name>` |');
    expect(table).not.toContain('`unimplemented`');
    const rows = table.split('\n').slice(2);
    const statuses = rows.map((r) => Number(/^\| (\d{3}) \|/.exec(r)?.[1]));
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
    expect(rows).toHaveLength(Object.values(ERROR_CODES).filter((i) => !('internal' in i)).length);
  });

  it('refuses a skill.md without the markers rather than writing the table anywhere', () => {
    expect(() => withErrorTable('# no table here')).toThrow(/markers/);
  });
});
