import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { artifactEntry, recordEntry, signDocket, verifyArchive, writeArchive } from '@exchange/casefile';
import { publicKeyFromPrivate, sha256Hex, toBase64 } from '@exchange/crypto';
import { SKILL_MD } from './error-docs';

// skill.md §8 documents casefile verification for any language. Its code is run here exactly as
// published (node:crypto and node:zlib only, not libs/casefile) on archives libs/casefile writes,
// and must agree with libs/casefile's own verdict — valid, and each kind of tampering.

type Verdict = { valid: boolean; docket_id: string; checks: Array<{ ref: string; ok: boolean }> };

const skill = readFileSync(SKILL_MD, 'utf8');
const block = (name: string, lang: string) => {
  const m = new RegExp(`<!-- ${name}:start -->\\s*\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(skill);
  if (!m) throw new Error(`skill.md has no ${name} block`);
  return m[1]!;
};
const verifyCasefile = new Function('require', `${block('casefile-verify', 'js')}\nreturn verifyCasefile;`)(require) as (tgz: Buffer, key: string) => Verdict;

const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => 200 - i));
const exchangeKey = toBase64(publicKeyFromPrivate(seed));
const otherKey = toBase64(publicKeyFromPrivate(Buffer.alloc(32, 7)));
const bytes = Buffer.from('the delivered work, byte for byte\n');
const missing = Buffer.from('not included');

async function casefile() {
  const docket = signDocket(
    {
      subject: { contract_id: 'ctr_doc' },
      createdAt: '2026-11-21T18:00:00.000Z',
      entries: [
        recordEntry('contract', 'ctr_doc', { contract_id: 'ctr_doc', title: 'Zusammenfassung — 40 tickets', budget: { amount: '100', currency: 'CREDIT' } }),
        // A non-integral number: hashed in its RFC 8785 form.
        recordEntry('verification_report', 'vrp_doc', { verdict: 'pass', score: 0.95, checks: [{ name: 'count', ok: true }] }),
        artifactEntry(`sha256:${sha256Hex(bytes)}`, sha256Hex(bytes), 'text/plain', bytes.length),
        artifactEntry(`sha256:${sha256Hex(missing)}`, sha256Hex(missing), 'text/plain', missing.length),
      ],
    },
    seed,
  );
  const archive = await writeArchive(docket, new Map([[sha256Hex(bytes), bytes]]));
  return { docket, archive };
}

/** Replaces `from` by `to` (same length) inside the tar and gzips it again. */
function patched(archive: Buffer, from: string, to: string): Buffer {
  const tar = gunzipSync(archive);
  const at = tar.indexOf(from);
  if (at < 0 || from.length !== to.length) throw new Error(`cannot patch ${from}`);
  Buffer.from(to).copy(tar, at);
  return gzipSync(tar);
}

describe('skill.md §8: verifying a casefile yourself', () => {
  it('accepts a casefile libs/casefile wrote, checking every entry, as libs/casefile does', async () => {
    const { docket, archive } = await casefile();
    const verdict = verifyCasefile(archive, exchangeKey);
    expect(verdict).toEqual({
      valid: true,
      docket_id: docket.docket_id,
      checks: [{ ref: 'signature', ok: true }, ...docket.entries.map((e) => ({ ref: e.ref, ok: true }))],
    });
    expect((await verifyArchive(archive, { trustedPublicKey: exchangeKey })).valid).toBe(true);
  });

  it('refuses another trusted key, a changed payload byte, a changed record and a changed signature, like libs/casefile', async () => {
    const { docket, archive } = await casefile();
    const cases: Array<[string, Buffer, string, string]> = [
      ['other key', archive, otherKey, 'signature'],
      ['payload byte', patched(archive, 'byte for byte', 'byte f0r byte'), exchangeKey, `sha256:${sha256Hex(bytes)}`],
      // The content changes, its hash no longer matches (and the signature still covers the old one).
      ['record content', patched(archive, '"score":0.95', '"score":0.96'), exchangeKey, 'vrp_doc'],
      ['signature', patched(archive, docket.signature.slice(0, 8), docket.signature.slice(0, 7) + (docket.signature[7] === 'A' ? 'B' : 'A')), exchangeKey, 'signature'],
    ];
    for (const [what, tgz, key, failing] of cases) {
      const verdict = verifyCasefile(tgz, key);
      const official = await verifyArchive(tgz, { trustedPublicKey: key });
      expect({ what, valid: verdict.valid, official: official.valid }).toEqual({ what, valid: false, official: false });
      expect({ what, failed: verdict.checks.filter((c) => !c.ok).map((c) => c.ref) }).toEqual({
        what,
        failed: what === 'record content' ? ['signature', 'vrp_doc'] : [failing],
      });
    }
  });

  const python = (() => {
    try {
      execFileSync('python3', ['-c', 'import cryptography'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  // The Python sketch needs python3 with `cryptography` (present on the CI image).
  (python ? it : it.skip)('gives a Python sketch that reaches the same verdicts', async () => {
    const { archive } = await casefile();
    const dir = mkdtempSync(join(tmpdir(), 'casefile-doc-'));
    try {
      const script = join(dir, 'verify.py');
      writeFileSync(
        script,
        `${block('jcs-python', 'python')}\n${block('casefile-verify-python', 'python')}\nimport sys\nprint(json.dumps(verify_casefile(sys.argv[1], sys.argv[2])))\n`,
      );
      const run = (tgz: Buffer, key: string) => {
        writeFileSync(join(dir, 'c.tar.gz'), tgz);
        return JSON.parse(execFileSync('python3', [script, join(dir, 'c.tar.gz'), key], { encoding: 'utf8' })) as Verdict;
      };
      expect(run(archive, exchangeKey)).toEqual(verifyCasefile(archive, exchangeKey));
      const tampered = patched(archive, 'byte for byte', 'byte f0r byte');
      expect(run(tampered, exchangeKey)).toEqual(verifyCasefile(tampered, exchangeKey));
      expect(run(archive, otherKey).valid).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
