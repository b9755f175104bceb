import { docketJson, readArchive, type Docket, type DocketEntry } from '@exchange/casefile';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { http } from './http';
import { RegistryHttp, randomContent } from './registry-http';
import { bootStack, type Stack } from './stack';

// A settled contract's casefile exported through the gateway (with its artifact's bytes) verifies
// on the JSON route, on the archive route (/ui/casefile/verify) and with the CLI, fully offline;
// changing one byte of any entry's content, of the artifact payload, of any entry hash or of the
// signature makes all three say INVALID and name the entry.

const run = promisify(execFile);
const repoRoot = resolve(__dirname, '../../../..');

let stack: Stack;
let r: RegistryHttp;
let docket: Docket;
let archive: Buffer;
let exchangeKey: string;
let workDir: string;

interface Verdict {
  valid: boolean;
  docket_id: string;
  checks: { ref: string; ok: boolean; reason?: string }[];
}

const failing = (v: Verdict) => v.checks.filter((c) => !c.ok).map((c) => c.ref);

/** One character of the first string found in `value` replaced: a one-byte change of an ASCII value. */
function flipFirstString(value: unknown): unknown {
  let done = false;
  const walk = (v: unknown): unknown => {
    if (done) return v;
    if (typeof v === 'string' && v.length > 0) {
      done = true;
      return (v[0] === 'x' ? 'y' : 'x') + v.slice(1);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(value);
  if (!done) throw new Error('no string to flip');
  return out;
}

const flipHex = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);

function flipSignature(sig: string): string {
  const bytes = Buffer.from(sig, 'base64');
  bytes[10] = (bytes[10] ?? 0) ^ 0x01;
  return bytes.toString('base64');
}

/**
 * A .tar.gz of docket.json + payloads/<hex> written WITHOUT the library's checks (which refuse a
 * payload that does not hash to its name): the tampered archive an attacker would hand over.
 */
async function packArchive(d: Docket, payloads: Map<string, Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  const add = (name: string, data: Buffer) =>
    new Promise<void>((res, rej) => pack.entry({ name, size: data.length, mode: 0o644, type: 'file' }, data, (err) => (err ? rej(err) : res())));
  await add('docket.json', Buffer.from(docketJson(d), 'utf8'));
  for (const [hex, data] of [...payloads].sort(([a], [b]) => (a < b ? -1 : 1))) await add(`payloads/${hex}`, data);
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

function withEntry(d: Docket, index: number, entry: DocketEntry): Docket {
  return { ...d, entries: d.entries.map((e, i) => (i === index ? entry : e)) };
}

async function verifyJson(body: unknown): Promise<Verdict> {
  return r.expectStatus(r.op('POST', '/v1/casefiles/verify', body), 200);
}

async function verifyUi(bytes: Buffer): Promise<Verdict> {
  const res = await fetch(`${stack.baseUrl}/ui/casefile/verify`, { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: bytes });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`ui verify: ${res.status} ${text}`);
  return JSON.parse(text) as Verdict;
}

async function verifyCli(bytes: Buffer, name: string): Promise<{ code: number; out: string }> {
  const file = join(workDir, `${name}.tar.gz`);
  await writeFile(file, bytes);
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'libs/sdk/src/cli/main.ts', 'casefile', 'verify', file, '--exchange-key', exchangeKey], {
      cwd: repoRoot,
      env: { ...process.env, EXCHANGE_PUBLIC_KEY: '' },
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, out: (e.stdout ?? '') + (e.stderr ?? '') };
  }
}

beforeAll(async () => {
  // Dozens of anonymous archive checks: beyond the per-IP verification budget (not tested here).
  stack = await bootStack({ env: { RATE_LIMIT_CASEFILE_VERIFY: '100000' } });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
  workDir = await mkdtemp(join(tmpdir(), 'casefile-e2e-'));
  exchangeKey = await r.exchangePublicKey();

  const buyer = await r.newAgent('cf-buyer');
  const seller = await r.newAgent('cf-seller');
  await r.fund(buyer, '150');
  const contract = await r.openContract(buyer);
  const offer = await r.submitOffer(seller, contract.contract_id, '100');
  await r.expectStatus(r.award(contract.contract_id, offer.offer_id), 200);
  const bytes = randomContent(64 * 1024);
  const artifact = await r.expectStatus(r.uploadJson(seller, bytes, { contract_id: contract.contract_id, access: 'parties', media_type: 'text/markdown' }), 201);
  const result = await r.submitResult(seller, contract.contract_id, { artifact_refs: [artifact.artifact_ref] });
  await r.expectStatus(r.verify(buyer, contract.contract_id, result.result_id, 'pass'), 201);
  expect(await r.download(artifact.artifact_ref, buyer)).toMatchObject({ status: 200 });

  const exported = await r.expectStatus(
    r.as(buyer, 'POST', '/v1/casefiles/export', { subject: { contract_id: contract.contract_id }, include_payloads: true }),
    200,
  );
  docket = exported.docket;
  archive = Buffer.from(exported.archive_base64, 'base64');
}, 180_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
  await stack?.stop();
});

describe('casefile export → verify', () => {
  it('exports the contract, its offer, result, report, receipt and artifact, signed by the exchange key', async () => {
    const kinds = new Set(docket.entries.map((e) => e.kind));
    for (const kind of ['contract', 'offer', 'result', 'verification_report', 'receipt', 'artifact', 'delivery_receipt']) expect(kinds).toContain(kind);
    expect(docket.exchange_pubkey).toBe(exchangeKey);
    const read = await readArchive(archive);
    expect(read.docket).toEqual(docket);
    const art = docket.entries.find((e) => e.kind === 'artifact')!;
    expect(createHash('sha256').update(read.payloads.get(art.sha256)!).digest('hex')).toBe(art.sha256);
  });

  it('verifies on the JSON route (docket and archive), the archive route and the CLI', async () => {
    for (const verdict of [await verifyJson({ docket }), await verifyJson({ archive_base64: archive.toString('base64') }), await verifyUi(archive)]) {
      expect(verdict.valid).toBe(true);
      expect(verdict.docket_id).toBe(docket.docket_id);
      expect(failing(verdict)).toEqual([]);
      for (const e of docket.entries) expect(verdict.checks.map((c) => c.ref)).toContain(e.ref);
    }
    const cli = await verifyCli(archive, 'valid');
    expect(cli.code).toBe(0);
  });

  it('names the entry whose content, hash or payload changed, and the signature, on every route', async () => {
    const read = await readArchive(archive);
    const cases: { name: string; docket: Docket; payloads: Map<string, Buffer>; ref: string }[] = [];
    docket.entries.forEach((entry, i) => {
      if (entry.kind !== 'artifact') {
        cases.push({ name: `content-${i}`, docket: withEntry(docket, i, { ...entry, content: flipFirstString(entry.content) as never }), payloads: read.payloads, ref: entry.ref });
      }
      cases.push({ name: `hash-${i}`, docket: withEntry(docket, i, { ...entry, sha256: flipHex(entry.sha256) }), payloads: read.payloads, ref: entry.ref });
    });
    const art = docket.entries.find((e) => e.kind === 'artifact')!;
    const payload = Buffer.from(read.payloads.get(art.sha256)!);
    payload[100] = (payload[100] ?? 0) ^ 0xff;
    cases.push({ name: 'payload', docket, payloads: new Map([...read.payloads, [art.sha256, payload]]), ref: art.ref });
    cases.push({ name: 'signature', docket: { ...docket, signature: flipSignature(docket.signature) }, payloads: read.payloads, ref: 'signature' });

    for (const c of cases) {
      const tampered = await packArchive(c.docket, c.payloads);
      const byArchive = await verifyJson({ archive_base64: tampered.toString('base64') });
      const byUi = await verifyUi(tampered);
      for (const [route, verdict] of [['json archive', byArchive], ['ui', byUi]] as const) {
        expect({ case: c.name, route, valid: verdict.valid, names: failing(verdict).includes(c.ref) }).toEqual({ case: c.name, route, valid: false, names: true });
      }
      if (c.name !== 'payload') {
        const byDocket = await verifyJson({ docket: c.docket });
        expect({ case: c.name, valid: byDocket.valid, names: failing(byDocket).includes(c.ref) }).toEqual({ case: c.name, valid: false, names: true });
      }
    }

    // The CLI, on one case of each kind (each run is a process).
    for (const name of ['content-0', 'hash-0', 'payload', 'signature']) {
      const c = cases.find((x) => x.name === name)!;
      const cli = await verifyCli(await packArchive(c.docket, c.payloads), name);
      expect({ name, code: cli.code, names: cli.out.includes(c.ref) }).toEqual({ name, code: 1, names: true });
    }
  }, 240_000);

  it('answers 400 casefile_unreadable for bytes that are not an archive, on both routes', async () => {
    const res = await r.op('POST', '/v1/casefiles/verify', { archive_base64: Buffer.from('not a tarball').toString('base64') });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'casefile_unreadable' });
    const ui = await http(stack.baseUrl, 'POST', '/ui/casefile/verify', { headers: { 'content-type': 'application/gzip' }, rawBody: 'nope' });
    expect({ status: ui.status, code: ui.body.code }).toEqual({ status: 400, code: 'casefile_unreadable' });
  });
});
