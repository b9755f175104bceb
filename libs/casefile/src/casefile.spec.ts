import { fromBase64, generateKeyPair, sha256Hex, toBase64 } from '@exchange/crypto';
import { isId, uuidv7Timestamp } from '@exchange/platform';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import {
  artifactEntry,
  CasefileInputError,
  CasefileTooLargeError,
  CasefileUnreadableError,
  docketJson,
  newDocketId,
  readArchive,
  recordEntry,
  signDocket,
  verifyArchive,
  verifyDocket,
  writeArchive,
  type ArchiveLimits,
  type Docket,
} from './index';

const keys = generateKeyPair();
const trusted = toBase64(keys.publicKey);
const bytesA = Buffer.from('artifact A bytes\n');
const bytesB = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
const hexA = sha256Hex(bytesA);
const hexB = sha256Hex(bytesB);

function sampleDocket(): Docket {
  return signDocket(
    {
      subject: { contract_id: 'ctr_1' },
      entries: [
        recordEntry('contract', 'ctr_1', { contract_id: 'ctr_1', title: 'Résumé ✓', budget: { amount: '12.50', currency: 'USD' }, tags: ['a', 'b'] }),
        recordEntry('offer', 'ofr_1', { offer_id: 'ofr_1', price: 7, note: null }),
        artifactEntry(`sha256:${hexA}`, hexA, 'text/plain', bytesA.length),
        artifactEntry(`sha256:${hexB}`, hexB, 'application/octet-stream', bytesB.length),
      ],
      createdAt: new Date('2026-11-21T23:40:00.123Z'),
    },
    keys.privateKey,
  );
}

async function tarGz(files: Array<{ name: string; data?: Buffer; type?: tar.Header['type']; linkname?: string }>): Promise<Buffer> {
  const pack = tar.pack();
  const out = (async () => {
    const chunks: Buffer[] = [];
    for await (const c of pack) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  })();
  for (const f of files) {
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: f.name, type: f.type ?? 'file', size: f.data?.length ?? 0, linkname: f.linkname }, f.data ?? Buffer.alloc(0), (e) => (e ? reject(e) : resolve())),
    );
  }
  pack.finalize();
  return gzipSync(await out);
}

describe('signDocket and verifyDocket', () => {
  it('should sign a docket that verifies with the trusted key, one check per entry in order', () => {
    const docket = sampleDocket();
    expect(docket.docket_id).toMatch(/^dkt_[0-9a-f-]{36}$/);
    expect(docket.exchange_pubkey).toBe(trusted);
    expect(docket.created_at).toBe('2026-11-21T23:40:00.123Z');
    const result = verifyDocket(docket, { trustedPublicKey: trusted });
    expect(result).toEqual({
      valid: true,
      docket_id: docket.docket_id,
      checks: [
        { ref: 'docket', ok: true },
        { ref: 'signature', ok: true },
        { ref: 'ctr_1', ok: true },
        { ref: 'ofr_1', ok: true },
        { ref: `sha256:${hexA}`, ok: true, reason: 'payload not included' },
        { ref: `sha256:${hexB}`, ok: true, reason: 'payload not included' },
      ],
    });
  });

  it('should make docket ids the platform accepts as dkt ids, carrying the time', () => {
    const at = Date.parse('2026-11-21T23:40:00.123Z');
    for (let i = 0; i < 50; i++) {
      const id = newDocketId(at);
      expect(isId('dkt', id)).toBe(true);
      expect(uuidv7Timestamp(id.slice(4))).toBe(at);
    }
    expect(new Set(Array.from({ length: 100 }, () => newDocketId())).size).toBe(100);
  });

  it('should hash record content as canonical JSON', () => {
    const entry = recordEntry('receipt', 'rcpt_1', { b: 1, a: [1, 'x'] });
    expect(entry.sha256).toBe(sha256Hex('{"a":[1,"x"],"b":1}'));
  });

  it('should accept a base64 seed and an explicit docket id', () => {
    const id = 'dkt_01a20074-e126-7646-99b7-d369bf8f66e9';
    const docket = signDocket({ subject: {}, entries: [], createdAt: '2026-01-01T00:00:00Z', docketId: id }, toBase64(keys.privateKey));
    expect(docket.docket_id).toBe(id);
    expect(verifyDocket(docket, { trustedPublicKey: trusted }).valid).toBe(true);
  });

  it('should refuse a docket signed by another key when a trusted key is given', () => {
    const other = generateKeyPair();
    const docket = signDocket({ subject: {}, entries: [recordEntry('object', 'sha256:ab', { x: 1 })], createdAt: new Date() }, other.privateKey);
    const result = verifyDocket(docket, { trustedPublicKey: trusted });
    expect(result.valid).toBe(false);
    expect(result.checks.find((c) => c.ref === 'signature')).toEqual({ ref: 'signature', ok: false, reason: 'docket exchange_pubkey is not the trusted exchange key' });
    // A forger who also swaps exchange_pubkey for the trusted key fails the signature itself.
    const forged = { ...docket, exchange_pubkey: trusted };
    expect(verifyDocket(forged, { trustedPublicKey: trusted }).checks[1]).toEqual({ ref: 'signature', ok: false, reason: 'signature does not verify with the trusted exchange key' });
  });

  it('should say when it used the docket’s own key (no trusted key)', () => {
    const result = verifyDocket(sampleDocket());
    expect(result.valid).toBe(true);
    expect(result.checks[1]).toEqual({ ref: 'signature', ok: true, reason: expect.stringContaining('no trusted key') });
  });

  it('should report a malformed docket without throwing', () => {
    expect(verifyDocket('nope')).toEqual({ valid: false, docket_id: '', checks: [{ ref: 'docket', ok: false, reason: 'docket is not a JSON object' }] });
    const result = verifyDocket({ docket_id: 'x', entries: [{ kind: 'contract' }, 5, { kind: 'weird', ref: 'r', sha256: hexA }], extra: 1 });
    expect(result.valid).toBe(false);
    expect(result.checks[0]!.reason).toContain('unexpected field extra');
    expect(result.checks[0]!.reason).toContain('docket_id must be dkt_<uuidv7>');
    expect(result.checks.slice(2)).toEqual([
      { ref: 'entries[0]', ok: false, reason: 'entry has no ref' },
      { ref: 'entries[1]', ok: false, reason: 'entry is not an object' },
      { ref: 'r', ok: false, reason: 'unknown entry kind weird' },
    ]);
  });

  it('should fail a duplicate entry and an artifact whose ref is not its hash', () => {
    const c = recordEntry('contract', 'ctr_1', { a: 1 });
    const wrongRef = artifactEntry(`sha256:${hexB}`, hexA, 'text/plain', 1);
    const docket = signDocket({ subject: {}, entries: [c, c, wrongRef], createdAt: new Date() }, keys.privateKey);
    const checks = verifyDocket(docket, { trustedPublicKey: trusted }).checks.slice(2);
    expect(checks).toEqual([
      { ref: 'ctr_1', ok: true },
      { ref: 'ctr_1', ok: false, reason: 'duplicate contract entry' },
      { ref: `sha256:${hexB}`, ok: false, reason: 'ref does not match sha256' },
    ]);
  });

  it('should refuse bad builder input', () => {
    expect(() => artifactEntry('sha256:x', 'XYZ', 'text/plain', 1)).toThrow(CasefileInputError);
    expect(() => artifactEntry(`sha256:${hexA}`, hexA, 'text/plain', -1)).toThrow(CasefileInputError);
    expect(() => recordEntry('bogus' as never, 'r', {})).toThrow(CasefileInputError);
    expect(() => recordEntry('contract', 'r', undefined)).toThrow(CasefileInputError);
    expect(() => signDocket({ subject: {}, entries: [], createdAt: 'not a date' }, keys.privateKey)).toThrow(CasefileInputError);
    expect(() => signDocket({ subject: {}, entries: [], createdAt: new Date() }, new Uint8Array(5))).toThrow(CasefileInputError);
  });
});

describe('writeArchive / readArchive / verifyArchive', () => {
  it('should round-trip a docket with payloads (Buffer and stream)', async () => {
    const docket = sampleDocket();
    const archive = await writeArchive(docket, new Map<string, Buffer | Readable>([[hexA, bytesA], [hexB, Readable.from([bytesB.subarray(0, 100), bytesB.subarray(100)])]]));
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const read = await readArchive(archive);
    expect(read.docket).toEqual(docket);
    expect(read.docketJson).toBe(docketJson(docket));
    expect(read.payloads.get(hexA)).toEqual(bytesA);
    expect(read.payloads.get(hexB)).toEqual(bytesB);
    expect(read.extraFiles).toEqual([]);
    const result = await verifyArchive(archive, { trustedPublicKey: trusted });
    expect(result.valid).toBe(true);
    expect(result.checks.map((c) => [c.ref, c.ok, c.reason])).toEqual([
      ['docket', true, undefined],
      ['signature', true, undefined],
      ['ctr_1', true, undefined],
      ['ofr_1', true, undefined],
      [`sha256:${hexA}`, true, undefined],
      [`sha256:${hexB}`, true, undefined],
    ]);
  });

  it('should be deterministic', async () => {
    const docket = sampleDocket();
    const a = await writeArchive(docket, new Map([[hexA, bytesA]]));
    const b = await writeArchive(docket, new Map([[hexA, bytesA]]));
    expect(a.equals(b)).toBe(true);
  });

  it('should refuse payloads that are not artifact entries or do not hash to their name', async () => {
    const docket = sampleDocket();
    await expect(writeArchive(docket, new Map([[sha256Hex('other'), Buffer.from('other')]]))).rejects.toThrow(CasefileInputError);
    await expect(writeArchive(docket, new Map([[hexA, bytesB]]))).rejects.toThrow('does not hash to its name');
  });

  it('should fail unknown archive files and payloads not in the docket, valid stays false', async () => {
    const docket = sampleDocket();
    const stray = sha256Hex('stray');
    const archive = await tarGz([
      { name: 'docket.json', data: Buffer.from(docketJson(docket)) },
      { name: `payloads/${hexA}`, data: bytesA },
      { name: `payloads/${stray}`, data: Buffer.from('stray') },
      { name: 'notes.txt', data: Buffer.from('hi') },
      { name: 'payloads/', type: 'directory' },
    ]);
    const result = await verifyArchive(archive, { trustedPublicKey: trusted });
    expect(result.valid).toBe(false);
    expect(result.checks.filter((c) => !c.ok)).toEqual([
      { ref: `payloads/${stray}`, ok: false, reason: 'archive file not in the docket' },
      { ref: 'notes.txt', ok: false, reason: 'archive file not in the docket' },
    ]);
  });

  it('should name the artifact whose payload was swapped', async () => {
    const docket = sampleDocket();
    const archive = await tarGz([
      { name: 'docket.json', data: Buffer.from(docketJson(docket)) },
      { name: `payloads/${hexA}`, data: Buffer.from('artifact A bytes!') },
    ]);
    const result = await verifyArchive(archive, { trustedPublicKey: trusted });
    expect(result.valid).toBe(false);
    expect(result.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual([`sha256:${hexA}`]);
  });

  describe('hostile archives', () => {
    const unreadable = async (input: Buffer, message: RegExp | string, limits = {}, code = 'casefile_unreadable') => {
      const err = await readArchive(input, limits).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CasefileUnreadableError);
      expect((err as CasefileUnreadableError).code).toBe(code);
      expect((err as Error).message).toMatch(message);
    };
    // Past a reading limit: still unreadable, with the code of HTTP 413.
    const tooLarge = async (input: Buffer, message: RegExp | string, limits: Partial<ArchiveLimits>) => {
      await unreadable(input, message, limits, 'payload_too_large');
      await expect(verifyArchive(input, { limits })).rejects.toBeInstanceOf(CasefileTooLargeError);
    };
    const docketFile = () => ({ name: 'docket.json', data: Buffer.from(docketJson(sampleDocket())) });

    it('should refuse non-gzip input', () => unreadable(Buffer.from('{"docket_id":1}'), 'not a gzip file'));
    it('should refuse empty input', () => unreadable(Buffer.alloc(0), 'not a gzip file'));
    it('should refuse a truncated gzip', async () => {
      const archive = await writeArchive(sampleDocket());
      await unreadable(archive.subarray(0, archive.length - 10), /not a valid gzip file/);
    });
    it('should refuse gzip of something that is not tar', () => unreadable(gzipSync(Buffer.alloc(1024, 'x')), /not a valid tar archive/));
    it('should refuse an archive without docket.json', async () => unreadable(await tarGz([{ name: 'other.json', data: Buffer.from('{}') }]), 'archive has no docket.json'));
    it('should refuse a docket.json that is not JSON', async () => unreadable(await tarGz([{ name: 'docket.json', data: Buffer.from('{nope') }]), /docket.json is not JSON/));
    it.each(['../docket.json', '/etc/passwd', 'payloads/../../x', './docket.json', 'a\\b', 'payloads//x'])('should refuse the unsafe name %p', async (name) =>
      unreadable(await tarGz([docketFile(), { name, data: Buffer.from('x') }]), /unsafe file name/),
    );
    it('should refuse symlinks and hard links', async () => {
      await unreadable(await tarGz([docketFile(), { name: 'payloads/x', type: 'symlink', linkname: '/etc/passwd' }]), /is a symlink/);
      await unreadable(await tarGz([docketFile(), { name: 'payloads/y', type: 'link', linkname: 'docket.json' }]), /is a link/);
    });
    it('should refuse duplicate members', async () => unreadable(await tarGz([docketFile(), docketFile()]), 'archive has docket.json twice'));
    it('should refuse a gzip bomb beyond the expansion limit', async () => {
      const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
      expect(bomb.length).toBeLessThan(64 * 1024);
      await tooLarge(bomb, /expands beyond 1048576 bytes/, { maxUncompressedBytes: 1024 * 1024 });
    });
    it('should refuse too many files, too big input and too big docket.json', async () => {
      const many = await tarGz([docketFile(), ...Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('x') }))]);
      await tooLarge(many, 'archive has more than 3 files', { maxFiles: 3 });
      await tooLarge(many, /archive is larger than 10 bytes/, { maxArchiveBytes: 10 });
      await tooLarge(many, /docket.json is larger than 100 bytes/, { maxDocketBytes: 100 });
    });
    it('should verify a readable archive whose docket.json was rewritten (not canonical) as still signed', async () => {
      const docket = sampleDocket();
      const archive = await tarGz([{ name: 'docket.json', data: Buffer.from(JSON.stringify(docket, null, 2)) }]);
      expect((await verifyArchive(archive, { trustedPublicKey: trusted })).valid).toBe(true);
      expect(gunzipSync(archive).length).toBeGreaterThan(0);
    });
  });
});

describe('trusted key handling', () => {
  it('should fail the signature check when the trusted key is malformed', () => {
    const check = verifyDocket(sampleDocket(), { trustedPublicKey: 'not-base64' }).checks[1];
    expect(check).toEqual({ ref: 'signature', ok: false, reason: 'trusted exchange key is not a base64 32-byte key' });
    expect(fromBase64(trusted)).toHaveLength(32);
  });
});
