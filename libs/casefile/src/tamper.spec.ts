// Property: flipping any single byte of a content, a payload, an entry hash, the signature or the
// docket id makes the archive invalid, and the failing checks name exactly what was touched.
import { fromBase64, generateKeyPair, sha256Hex, toBase64 } from '@exchange/crypto';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { artifactEntry, docketJson, recordEntry, signDocket, verifyArchive, writeArchive, type Docket, type RecordEntry } from './index';

const keys = generateKeyPair();
const trusted = toBase64(keys.publicKey);

async function tarGz(files: Array<{ name: string; data: Buffer }>): Promise<Buffer> {
  const pack = tar.pack();
  const out = (async () => {
    const chunks: Buffer[] = [];
    for await (const c of pack) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  })();
  for (const f of files) {
    await new Promise<void>((resolve, reject) => pack.entry({ name: f.name, size: f.data.length }, f.data, (e) => (e ? reject(e) : resolve())));
  }
  pack.finalize();
  return gzipSync(await out);
}

interface Casefile {
  docket: Docket;
  payloads: Map<string, Buffer>;
}

const note = fc.stringMatching(/^[a-zA-Z0-9 ]{1,24}$/);
const casefileArb: fc.Arbitrary<Casefile> = fc
  .record({
    records: fc.array(fc.record({ kind: fc.constantFrom('contract', 'offer', 'result', 'receipt', 'ack' as const), note, n: fc.integer({ min: -1e9, max: 1e9 }) }), { minLength: 1, maxLength: 5 }),
    payloads: fc.uniqueArray(fc.uint8Array({ minLength: 1, maxLength: 300 }), { minLength: 1, maxLength: 3, selector: (b) => Buffer.from(b).toString('hex') }),
  })
  .map(({ records, payloads }) => {
    const entries = [
      ...records.map((r, i) => recordEntry(r.kind, `${r.kind}_${i}`, { id: `${r.kind}_${i}`, note: r.note, n: r.n, nested: { list: [r.note, i] } })),
      ...payloads.map((p) => {
        const hex = sha256Hex(p);
        return artifactEntry(`sha256:${hex}`, hex, 'application/octet-stream', p.length);
      }),
    ];
    const docket = signDocket({ subject: { contract_id: 'ctr_x' }, entries, createdAt: new Date('2026-11-21T00:00:00Z') }, keys.privateKey);
    return { docket, payloads: new Map(payloads.map((p) => [sha256Hex(p), Buffer.from(p)])) };
  });

async function archiveOf(docket: Docket, payloads: Map<string, Buffer>): Promise<Buffer> {
  return tarGz([{ name: 'docket.json', data: Buffer.from(docketJson(docket)) }, ...[...payloads].map(([hex, data]) => ({ name: `payloads/${hex}`, data }))]);
}

async function failing(docket: Docket, payloads: Map<string, Buffer>): Promise<{ valid: boolean; refs: string[] }> {
  const result = await verifyArchive(await archiveOf(docket, payloads), { trustedPublicKey: trusted });
  return { valid: result.valid, refs: result.checks.filter((c) => !c.ok).map((c) => c.ref) };
}

function flipChar(text: string, index: number, alphabet: string): string {
  const i = index % text.length;
  const current = text[i]!;
  const replacement = alphabet[(alphabet.indexOf(current) + 1) % alphabet.length] ?? alphabet[0]!;
  return text.slice(0, i) + replacement + text.slice(i + 1);
}

const clone = (d: Docket): Docket => JSON.parse(JSON.stringify(d)) as Docket;
const RUNS = { numRuns: 40 };

describe('tampering (property-based)', () => {
  it('should accept every untampered casefile', async () => {
    await fc.assert(
      fc.asyncProperty(casefileArb, async ({ docket, payloads }) => {
        const result = await verifyArchive(await writeArchive(docket, payloads), { trustedPublicKey: trusted });
        expect(result.valid).toBe(true);
      }),
      { numRuns: 20 },
    );
  });

  it('should name the record whose content had one character changed', async () => {
    await fc.assert(
      fc.asyncProperty(casefileArb, fc.nat(), fc.nat(), async ({ docket, payloads }, which, at) => {
        const tampered = clone(docket);
        const records = tampered.entries.filter((e): e is RecordEntry => e.kind !== 'artifact');
        const entry = records[which % records.length]!;
        const content = entry.content as { note: string };
        content.note = flipChar(content.note, at, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ');
        const { valid, refs } = await failing(tampered, payloads);
        expect(valid).toBe(false);
        expect(refs.sort()).toEqual(['signature', entry.ref].sort());
      }),
      RUNS,
    );
  });

  it('should name the artifact whose payload had one byte flipped (signature still good)', async () => {
    await fc.assert(
      fc.asyncProperty(casefileArb, fc.nat(), fc.nat(), fc.integer({ min: 1, max: 255 }), async ({ docket, payloads }, which, at, mask) => {
        const hexes = [...payloads.keys()];
        const hex = hexes[which % hexes.length]!;
        const bytes = Buffer.from(payloads.get(hex)!);
        bytes[at % bytes.length] ^= mask;
        const { valid, refs } = await failing(docket, new Map(payloads).set(hex, bytes));
        expect(valid).toBe(false);
        expect(refs).toEqual([`sha256:${hex}`]);
      }),
      RUNS,
    );
  });

  it('should name the entry whose sha256 had one hex digit changed', async () => {
    await fc.assert(
      fc.asyncProperty(casefileArb, fc.nat(), fc.nat(), async ({ docket, payloads }, which, at) => {
        const tampered = clone(docket);
        const entry = tampered.entries[which % tampered.entries.length]!;
        const before = entry.sha256;
        entry.sha256 = flipChar(entry.sha256, at, '0123456789abcdef');
        const { valid, refs } = await failing(tampered, payloads);
        expect(valid).toBe(false);
        expect(refs).toContain('signature');
        expect(refs).toContain(entry.ref);
        // The artifact's old payload file is now a file the docket does not name.
        const expected = entry.kind === 'artifact' ? ['signature', entry.ref, `payloads/${before}`] : ['signature', entry.ref];
        expect(refs.sort()).toEqual(expected.sort());
      }),
      RUNS,
    );
  });

  it('should fail only the signature when one signature byte is flipped', async () => {
    await fc.assert(
      fc.asyncProperty(casefileArb, fc.nat(), fc.integer({ min: 1, max: 255 }), async ({ docket, payloads }, at, mask) => {
        const sig = fromBase64(docket.signature);
        sig[at % sig.length] ^= mask;
        const { valid, refs } = await failing({ ...docket, signature: toBase64(sig) }, payloads);
        expect(valid).toBe(false);
        expect(refs).toEqual(['signature']);
      }),
      RUNS,
    );
  });

  it('should fail the signature when one character of the docket id is changed', async () => {
    await fc.assert(
      fc.asyncProperty(casefileArb, fc.integer({ min: 4, max: 39 }), async ({ docket, payloads }, at) => {
        const docketId = flipChar(docket.docket_id, at, '0123456789abcdef-');
        const { valid, refs } = await failing({ ...docket, docket_id: docketId }, payloads);
        expect(valid).toBe(false);
        expect(refs).toContain('signature');
        expect(refs.every((r) => r === 'signature' || r === 'docket')).toBe(true);
      }),
      RUNS,
    );
  });

  it('should fail the signature for a foreign key even when every hash is right', async () => {
    await fc.assert(
      fc.asyncProperty(casefileArb, async ({ docket, payloads }) => {
        const foreign = generateKeyPair();
        const resigned = signDocket({ subject: docket.subject, entries: docket.entries, createdAt: docket.created_at, docketId: docket.docket_id }, foreign.privateKey);
        const { valid, refs } = await failing(resigned, payloads);
        expect(valid).toBe(false);
        expect(refs).toEqual(['signature']);
      }),
      { numRuns: 10 },
    );
  });
});
