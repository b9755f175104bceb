import { artifactEntry, CasefileUnreadableError, recordEntry, signDocket, verifyArchive, writeArchive } from '@exchange/casefile';
import { generateKeyPair, publicKeyFromPrivate, sha256Hex, toBase64 } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { describeWithExecutable } from '@exchange/testing';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { chromium, type Browser } from 'playwright-core';
import { startHarness, type Harness } from './harness';

// GET /ui/casefile in headless Chromium: pick a real casefile archive (built and signed with
// @exchange/casefile), the page posts it to /ui/casefile/verify (the fake registry verifies it
// with the real verifier) and shows VALID, or INVALID with the failing entry. No request leaves
// loopback.

const CHROMIUM = '/usr/bin/chromium';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The same archive with one byte of one file flipped (what writeArchive itself refuses to produce). */
async function flipByteIn(archive: Buffer, fileName: string): Promise<Buffer> {
  const files: Array<{ name: string; data: Buffer }> = [];
  await new Promise<void>((resolve, reject) => {
    const ex = extract();
    ex.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        files.push({ name: header.name, data: Buffer.concat(chunks) });
        next();
      });
    });
    ex.on('finish', resolve);
    ex.on('error', reject);
    ex.end(gunzipSync(archive));
  });
  const target = files.find((f) => f.name === fileName);
  if (!target) throw new Error(`no ${fileName} in the archive`);
  target.data = Buffer.from(target.data);
  target.data[0] ^= 0x01;
  const p = pack();
  const out: Buffer[] = [];
  p.on('data', (c: unknown) => out.push(c as Buffer));
  const done = new Promise<void>((resolve) => p.on('end', () => resolve()));
  for (const f of files) p.entry({ name: f.name, size: f.data.length }, f.data);
  p.finalize();
  await done;
  return gzipSync(Buffer.concat(out));
}

describeWithExecutable('GET /ui/casefile in headless Chromium', CHROMIUM, 'apt-get install -y chromium', () => {
  let h: Harness;
  let browser: Browser;
  let baseUrl: string;
  const exchangeKey = generateKeyPair().privateKey;
  const payload = Buffer.from('forty ticket summaries, one paragraph each\n');
  const artifactRef = `sha256:${sha256Hex(payload)}`;
  const docket = signDocket(
    {
      subject: { artifact_refs: [artifactRef] },
      entries: [
        recordEntry('object', `sha256:${'cd'.repeat(32)}`, { type: 'note', payload: { n: 1 } }),
        artifactEntry(artifactRef, sha256Hex(payload), 'text/plain', payload.length),
      ],
      createdAt: '2026-11-21T18:00:00.000Z',
    },
    exchangeKey,
  );

  beforeAll(async () => {
    h = await startHarness();
    const trustedPublicKey = toBase64(publicKeyFromPrivate(exchangeKey));
    h.registry.archiveVerifier = async (archive) => {
      try {
        const verdict = await verifyArchive(archive, { trustedPublicKey });
        return { valid: verdict.valid, docketId: verdict.docket_id, checks: verdict.checks.map((c) => ({ ref: c.ref, ok: c.ok, reason: c.reason })) };
      } catch (err) {
        if (err instanceof CasefileUnreadableError) throw errors.invalidArgument('casefile_unreadable', err.message);
        throw err;
      }
    };
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function verifyInPage(name: string, archive: Buffer) {
    const page = await browser.newPage();
    const external: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:' || LOOPBACK.has(url.hostname)) return route.continue();
      external.push(url.href);
      return route.abort();
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const response = await page.goto(`${baseUrl}/ui/casefile`);
    expect(response?.status()).toBe(200);
    await page.setInputFiles('#file', { name, mimeType: 'application/gzip', buffer: archive });
    // The verdict gets class valid or invalid once the answer is shown ("Checking…" has none).
    await page.waitForSelector('#verdict.valid, #verdict.invalid', { timeout: 20_000 });
    const verdict = await page.textContent('#verdict');
    const rows = await page.$$eval('#checks tbody tr', (trs) => trs.map((tr) => ({ cls: tr.className, cells: [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '') })));
    const error = await page.textContent('#error');
    await page.close();
    expect({ external, pageErrors }).toEqual({ external: [], pageErrors: [] });
    return { verdict, rows, error };
  }

  it('should show VALID and every check for an untouched archive', async () => {
    const archive = await writeArchive(docket, new Map([[sha256Hex(payload), payload]]));
    const { verdict, rows } = await verifyInPage('good.tar.gz', archive);
    expect(verdict).toBe('VALID');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.cls === 'ok')).toBe(true);
    expect(rows.map((r) => r.cells[0])).toEqual(expect.arrayContaining(['signature', artifactRef]));
  }, 60_000);

  it('should show INVALID and name the artifact whose payload was changed', async () => {
    const good = await writeArchive(docket, new Map([[sha256Hex(payload), payload]]));
    const archive = await flipByteIn(good, `payloads/${sha256Hex(payload)}`);
    const { verdict, rows } = await verifyInPage('tampered.tar.gz', archive);
    expect(verdict).toBe('INVALID');
    const failed = rows.filter((r) => r.cls === 'fail');
    expect(failed.map((r) => r.cells[0])).toEqual([artifactRef]);
    expect(failed[0].cells[1]).toBe('FAILED');
  }, 60_000);

  it('should show UNREADABLE with casefile_unreadable for a file that is not an archive', async () => {
    const { verdict, error } = await verifyInPage('notes.txt', Buffer.from('not a casefile'));
    expect(verdict).toBe('UNREADABLE');
    expect(error).toMatch(/^casefile_unreadable: /);
  }, 60_000);
});
