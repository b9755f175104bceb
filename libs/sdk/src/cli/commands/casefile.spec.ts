// `exchange casefile verify` on real archives built with @exchange/casefile (valid, tampered,
// unreadable), in-process and once as a child process.
import { artifactEntry, docketJson, recordEntry, signDocket, writeArchive, type Docket } from '@exchange/casefile';
import { generateKeyPair, sha256Hex, toBase64 } from '@exchange/crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { json, startRecordingServer } from '../../testing/recording-server';
import type { CliIo } from '../io';
import { runCli } from '../run-cli';

interface Captured extends CliIo {
  out: string;
  err: string;
}

function captureIo(env: Record<string, string | undefined>, cwd: string): Captured {
  const io: Captured = {
    out: '',
    err: '',
    env,
    cwd,
    stdout: (t) => {
      io.out += t;
    },
    stderr: (t) => {
      io.err += t;
    },
  };
  return io;
}

const keys = generateKeyPair();
const KEY = toBase64(keys.publicKey);
const payload = Buffer.from('the delivered work\n');
const hex = sha256Hex(payload);

function docket(): Docket {
  return signDocket(
    {
      subject: { contract_id: 'ctr_1' },
      entries: [
        recordEntry('contract', 'ctr_1', { contract_id: 'ctr_1', title: 'summarize' }),
        recordEntry('result', 'res_1', { result_id: 'res_1', note: 'done' }),
        artifactEntry(`sha256:${hex}`, hex, 'text/plain', payload.length),
      ],
      createdAt: new Date('2026-11-21T23:00:00Z'),
    },
    keys.privateKey,
  );
}

describe('exchange casefile verify', () => {
  let dir: string;
  let d: Docket;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exchange-casefile-'));
    d = docket();
    writeFileSync(join(dir, 'good.tar.gz'), await writeArchive(d, new Map([[hex, payload]])));
    // The same archive with one byte of the artifact's payload changed (gzip re-applied).
    const tarBytes = gunzipSync(await writeArchive(d, new Map([[hex, payload]])));
    const at = tarBytes.indexOf(payload);
    tarBytes[at + 4] ^= 0x20;
    writeFileSync(join(dir, 'tampered.tar.gz'), gzipSync(tarBytes));
    // The docket with one character of a record's content changed.
    const edited = docketJson(d).replace('"note":"done"', '"note":"Done"');
    const editedTar = gunzipSync(await writeArchive(d));
    const start = editedTar.indexOf(Buffer.from(docketJson(d)));
    Buffer.from(edited).copy(editedTar, start);
    writeFileSync(join(dir, 'edited.tar.gz'), gzipSync(editedTar));
    writeFileSync(join(dir, 'junk.tar.gz'), Buffer.from('not an archive'));
    // ~40 KiB that inflates to 40 MiB: past the reader's 16 MiB floor at more than 20-fold.
    writeFileSync(join(dir, 'bomb.tar.gz'), gzipSync(Buffer.alloc(40 * 1024 * 1024)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should print VALID and every check, exit 0', async () => {
    const io = captureIo({}, dir);
    expect(await runCli(['casefile', 'verify', 'good.tar.gz', '--exchange-key', KEY], io)).toBe(0);
    expect(io.err).toBe('');
    expect(io.out).toBe(
      [
        'VALID: good.tar.gz',
        `  docket: ${d.docket_id}`,
        `  exchange key: ${KEY} (--exchange-key)`,
        '  checks: 5 (0 failed)',
        '  ok   docket',
        '  ok   signature',
        '  ok   ctr_1',
        '  ok   res_1',
        `  ok   sha256:${hex}`,
        '',
      ].join('\n'),
    );
  });

  it('should verify a docket given as JSON (bare, or the export answer {docket}); an edited one is INVALID', async () => {
    const records = signDocket({ subject: { commerce_session_id: 'cs_1' }, entries: [recordEntry('checkout_session', 'cs_1', { total: '63' })], createdAt: new Date('2026-11-24T00:00:00Z') }, keys.privateKey);
    writeFileSync(join(dir, 'docket.json'), docketJson(records));
    writeFileSync(join(dir, 'export.json'), JSON.stringify({ docket: records }));
    writeFileSync(join(dir, 'edited.json'), docketJson(records).replace('"total":"63"', '"total":"6"'));
    writeFileSync(join(dir, 'broken.json'), '{"docket": ');
    for (const file of ['docket.json', 'export.json']) {
      const io = captureIo({}, dir);
      expect(await runCli(['casefile', 'verify', file, '--exchange-key', KEY], io)).toBe(0);
      expect(io.out).toContain(`VALID: ${file}`);
    }
    const edited = captureIo({}, dir);
    expect(await runCli(['casefile', 'verify', 'edited.json', '--exchange-key', KEY], edited)).toBe(1);
    expect(edited.out).toMatch(/FAIL cs_1/);
    expect(await runCli(['casefile', 'verify', 'broken.json', '--exchange-key', KEY], captureIo({}, dir))).toBe(2);
  });

  it('should take the key from EXCHANGE_PUBLIC_KEY and print JSON with --json', async () => {
    const io = captureIo({ EXCHANGE_PUBLIC_KEY: KEY }, dir);
    expect(await runCli(['casefile', 'verify', join(dir, 'good.tar.gz'), '--json'], io)).toBe(0);
    const verdict = JSON.parse(io.out);
    expect(verdict.valid).toBe(true);
    expect(verdict.docket_id).toBe(d.docket_id);
    expect(verdict.checks).toHaveLength(5);
  });

  it('should print INVALID naming the tampered artifact, exit 1', async () => {
    const io = captureIo({}, dir);
    expect(await runCli(['casefile', 'verify', 'tampered.tar.gz', '--exchange-key', KEY], io)).toBe(1);
    expect(io.out).toMatch(/^INVALID: tampered.tar.gz\n/);
    expect(io.out).toContain('  checks: 5 (1 failed)');
    expect(io.out).toContain(`  FAIL sha256:${hex} — payload hash mismatch`);
    expect(io.out).toContain('  ok   signature');
  });

  it('should name the record whose content was edited, and the signature, exit 1', async () => {
    const io = captureIo({}, dir);
    expect(await runCli(['casefile', 'verify', 'edited.tar.gz', '--exchange-key', KEY, '--json'], io)).toBe(1);
    const verdict = JSON.parse(io.out);
    expect(verdict.valid).toBe(false);
    expect(verdict.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { ref: string }) => c.ref)).toEqual(['signature', 'res_1']);
  });

  it('should be INVALID against another exchange key', async () => {
    const io = captureIo({}, dir);
    expect(await runCli(['casefile', 'verify', 'good.tar.gz', '--exchange-key', toBase64(generateKeyPair().publicKey)], io)).toBe(1);
    expect(io.out).toContain('  FAIL signature — docket exchange_pubkey is not the trusted exchange key');
  });

  it('should fetch the key from --exchange-url /health', async () => {
    const server = await startRecordingServer();
    try {
      server.respond(json(200, { status: 'ok', environment: 'sandbox', version: 'x', exchange_public_key: KEY, services: {}, time: '' }));
      const io = captureIo({}, dir);
      expect(await runCli(['casefile', 'verify', 'good.tar.gz', '--exchange-url', server.url], io)).toBe(0);
      expect(io.out).toContain(`exchange key: ${KEY} (${server.url}/health (not offline))`);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /health']);
    } finally {
      await server.close();
    }
  });

  it.each([
    [['casefile', 'verify', 'junk.tar.gz', '--exchange-key', KEY], 'error: casefile_unreadable: not a gzip file'],
    [['casefile', 'verify', 'bomb.tar.gz', '--exchange-key', KEY], 'error: payload_too_large: archive expands more than 20 times its compressed size'],
    [['casefile', 'verify', 'missing.tar.gz', '--exchange-key', KEY], 'error: file_unreadable: cannot read missing.tar.gz'],
    [['casefile', 'verify', 'good.tar.gz'], 'error: exchange_key_required'],
    [['casefile', 'verify', 'good.tar.gz', '--exchange-key', 'abc'], 'error: invalid_exchange_key'],
    [['casefile', 'verify'], "error: missing required argument 'file'"],
    [['casefile', 'verify', 'good.tar.gz', '--bogus'], "error: unknown option '--bogus'"],
  ])('should exit 2 for %j', async (argv, message) => {
    const io = captureIo({}, dir);
    expect(await runCli(argv, io)).toBe(2);
    expect(io.out).toBe('');
    expect(io.err).toContain(message);
  });

  it('should run as `npx exchange casefile verify` (child process): exit 0 valid, 1 tampered', async () => {
    const repoRoot = resolve(__dirname, '../../../../..');
    const run = promisify(execFile);
    const ok = await run('npx', ['--no-install', 'exchange', 'casefile', 'verify', join(dir, 'good.tar.gz')], { cwd: repoRoot, env: { ...process.env, EXCHANGE_PUBLIC_KEY: KEY } });
    expect(ok.stdout).toMatch(/^VALID: /);
    const bad = (await run('npx', ['--no-install', 'exchange', 'casefile', 'verify', join(dir, 'tampered.tar.gz'), '--exchange-key', KEY], { cwd: repoRoot }).then(
      () => null,
      (e: unknown) => e,
    )) as { code: number; stdout: string } | null;
    expect(bad?.code).toBe(1);
    expect(bad?.stdout).toContain(`FAIL sha256:${hex}`);
  }, 60_000);
});
