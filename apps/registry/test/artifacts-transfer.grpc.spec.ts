import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { registryV1 } from '@exchange/proto';
import { grpcError, status, type RegistryHarness, type TestAgent } from './registry-harness';
import { COUNT_ROWS, filesUnder, MiB, startArtifactsWorld } from './artifacts-fixture';

// Upload and download: byte-exact chunks, concurrent uploads of the same bytes, the size limit, the commit
// message and the refusals before anything is stored.
const { VISIBILITY_PUBLIC, VISIBILITY_PARTIES } = registryV1.Visibility;

describe('registry artifacts (gRPC, real PostgreSQL, filesystem store)', () => {
  let h: RegistryHarness;
  let buyer: TestAgent;
  let seller: TestAgent;
  let stranger: TestAgent;
  let listed: TestAgent;
  const contractId = `ctr_test_${Date.now()}`;

  beforeAll(async () => {
    ({ h, buyer, seller, stranger, listed } = await startArtifactsWorld(contractId));
  });
  afterAll(() => h.close());

  it('uploads and downloads byte-exact in 64 KiB chunks; the same bytes by another agent are its own upload', async () => {
    const bytes = randomBytes(300 * 1024 + 17);
    const ref = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const up = await h.upload(bytes, { mediaType: 'application/pdf', contractId, parties: [listed.agentId] }, h.as(seller));
    expect(up.created).toBe(true);
    expect(up.artifact).toMatchObject({
      artifactRef: ref,
      sizeBytes: String(bytes.length),
      mediaType: 'application/pdf',
      contractId,
      access: VISIBILITY_PARTIES,
      parties: [listed.agentId],
      status: registryV1.ArtifactStatus.ARTIFACT_STATUS_ACTIVE,
      uploadedBy: seller.agentId,
    });
    // The buyer's upload of the same bytes: its own metadata, nothing of the seller's.
    const again = await h.upload(bytes, { mediaType: 'text/plain', access: VISIBILITY_PUBLIC }, h.as(buyer));
    expect(again.created).toBe(true);
    expect(again.artifact).toMatchObject({ artifactRef: ref, mediaType: 'text/plain', access: VISIBILITY_PUBLIC, parties: [], uploadedBy: buyer.agentId });
    expect(again.artifact!.contractId).toBeUndefined();
    const down = await h.download(ref, h.as(buyer));
    expect(down.bytes.equals(bytes)).toBe(true);
    expect(down.artifact).toEqual(again.artifact);
    expect(down.chunkSizes.slice(0, -1).every((n) => n === 64 * 1024)).toBe(true);
    expect((await h.outbox(ref)).map((e) => [e.type, e.data.artifact?.uploadedBy])).toEqual([
      ['exchange.registry.artifact.uploaded', seller.agentId],
      ['exchange.registry.artifact.uploaded', buyer.agentId],
      ['exchange.registry.artifact.delivered', undefined],
    ]);
    expect(filesUnder(h.storeDir).filter((f) => f.endsWith(ref.slice('sha256:'.length)))).toHaveLength(1);
  });

  it('the same bytes uploaded 6 times at once: one created, one event, one file', async () => {
    const bytes = randomBytes(700 * 1024);
    const hex = createHash('sha256').update(bytes).digest('hex');
    const results = await Promise.all(Array.from({ length: 6 }, () => h.upload(bytes, { mediaType: 'application/octet-stream' }, h.as(buyer))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => JSON.stringify(r.artifact))).size).toBe(1);
    expect((await h.outbox(`sha256:${hex}`)).map((e) => e.type)).toEqual(['exchange.registry.artifact.uploaded']);
    expect(filesUnder(h.storeDir).filter((f) => f.endsWith(hex))).toHaveLength(1);
    expect(filesUnder(path.join(h.storeDir, '.parts'))).toEqual([]);
  });

  it('25 MiB round-trips; 25 MiB + 1 is payload_too_large and leaves nothing behind', async () => {
    const big = randomBytes(25 * MiB);
    const up = await h.upload(big, { mediaType: 'application/octet-stream' }, h.as(buyer));
    expect(up.artifact!.sizeBytes).toBe(String(25 * MiB));
    const down = await h.download(up.artifact!.artifactRef, h.as(buyer));
    expect(down.bytes.length).toBe(big.length);
    expect(down.bytes.equals(big)).toBe(true);

    const before = filesUnder(h.storeDir).sort();
    const { rows: countBefore } = await h.sql.query(COUNT_ROWS);
    const tooBig = Buffer.concat([randomBytes(25 * MiB), Buffer.from([7])]);
    const err = await grpcError(h.upload(tooBig, { mediaType: 'application/octet-stream' }, h.as(buyer)));
    expect([err.grpcCode, err.code]).toEqual([status.RESOURCE_EXHAUSTED, 'payload_too_large']);
    expect(filesUnder(h.storeDir).sort()).toEqual(before);
    const { rows: countAfter } = await h.sql.query(COUNT_ROWS);
    expect(countAfter[0].n).toBe(countBefore[0].n);
  }, 120_000);

  it('stores nothing unless the stream ends with a commit: ended early, cancelled, or a commit for other bytes', async () => {
    const { rows: before } = await h.sql.query(COUNT_ROWS);
    const storedBefore = filesUnder(h.storeDir).sort();
    const refOf = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
    const attempts: Array<{ bytes: Buffer; ending: Parameters<RegistryHarness['upload']>[3] }> = [
      { bytes: randomBytes(200 * 1024), ending: { kind: 'end' } },
      { bytes: randomBytes(200 * 1024), ending: { kind: 'cancel' } },
      { bytes: randomBytes(200 * 1024), ending: { kind: 'commit', contentSha256: '0'.repeat(64) } },
    ];
    const outcomes = [];
    for (const a of attempts) {
      const err = await grpcError(h.upload(a.bytes, { mediaType: 'text/plain', contractId, access: VISIBILITY_PUBLIC }, h.as(buyer), a.ending));
      outcomes.push([err.grpcCode, err.code]);
    }
    expect(outcomes).toEqual([
      [status.ABORTED, 'upload_not_committed'],
      [status.CANCELLED, 'cancelled'],
      [status.INVALID_ARGUMENT, 'content_hash_mismatch'],
    ]);
    // The cancelled call is answered before the registry has discarded its part: wait for it.
    for (let i = 0; i < 100 && filesUnder(path.join(h.storeDir, '.parts')).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(filesUnder(h.storeDir).sort()).toEqual(storedBefore);
    const { rows: after } = await h.sql.query(COUNT_ROWS);
    expect(after[0].n).toBe(before[0].n);
    for (const a of attempts) {
      expect((await grpcError(h.client.getArtifact({ artifactRef: refOf(a.bytes) }, h.operator()))).code).toBe('artifact_not_found');
      expect(await h.outbox(refOf(a.bytes))).toEqual([]);
    }
  });

  it('refuses empty content, a missing contract and a non-party uploader', async () => {
    let err = await grpcError(h.upload(Buffer.alloc(0), { mediaType: 'text/plain' }, h.as(buyer)));
    expect([err.grpcCode, err.code]).toEqual([status.INVALID_ARGUMENT, 'validation_failed']);
    expect(filesUnder(h.storeDir).some((f) => f.endsWith(createHash('sha256').update(Buffer.alloc(0)).digest('hex')))).toBe(false);
    err = await grpcError(h.upload(Buffer.from('x'), { mediaType: 'text/plain', contractId: 'ctr_missing' }, h.as(buyer)));
    expect([err.grpcCode, err.code]).toEqual([status.NOT_FOUND, 'contract_not_found']);
    err = await grpcError(h.upload(Buffer.from('x'), { mediaType: 'text/plain', contractId }, h.as(stranger)));
    expect([err.grpcCode, err.code]).toEqual([status.PERMISSION_DENIED, 'not_contract_party']);
    const byOperator = await h.upload(Buffer.from('operator upload'), { mediaType: 'text/plain', contractId }, h.operator());
    expect(byOperator.artifact!.uploadedBy).toBe('');
    err = await grpcError(h.upload(Buffer.from('x'), { mediaType: 'not a type' }, h.as(buyer)));
    expect(err.code).toBe('validation_failed');
  });
});
