import { createHash, randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { canonicalize, generateKeyPair, sha256Hex, toBase64 } from '@exchange/crypto';
import { readArchive, verifyArchive, type Docket } from '@exchange/casefile';
import { marketV1, registryV1, walletV1 } from '@exchange/proto';
import { contractFixture, grpcError, startRegistryHarness, status, type RegistryHarness, type TestAgent } from './registry-harness';

const T = new Date('2026-02-01T00:00:00.000Z');

/** gzip of the chunks, compressed as a stream (the inflated size never sits in memory). */
async function gzipStream(chunks: () => Iterable<Buffer>): Promise<Buffer> {
  const gzip = zlib.createGzip();
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  for (const chunk of chunks()) if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

/** A ustar header block of an empty regular file. */
function tarHeader(name: string): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 'utf8');
  block.write('0000644\0', 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write('00000000000\0', 124);
  block.write('00000000000\0', 136);
  block.write('        ', 148);
  block.write('0', 156);
  block.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

describe('registry casefiles (gRPC, real PostgreSQL)', () => {
  let h: RegistryHarness;
  let buyer: TestAgent;
  let seller: TestAgent;
  let stranger: TestAgent;
  const contractId = `ctr_case_${Date.now()}`;
  let resultArtifact: Buffer;
  let resultRef: string;
  let linkedRef: string;

  beforeAll(async () => {
    h = await startRegistryHarness();
    buyer = h.newAgent('buyer');
    seller = h.newAgent('seller');
    stranger = h.newAgent('stranger');
    h.fakes.contracts.set(contractId, { ...contractFixture(contractId, buyer.agentId, seller.agentId), receiptId: 'rcpt_1' });
    resultArtifact = randomBytes(5000);
    resultRef = (await h.upload(resultArtifact, { mediaType: 'text/markdown', parties: [buyer.agentId] }, h.as(seller))).artifact!.artifactRef;
    linkedRef = (await h.upload(randomBytes(300), { mediaType: 'application/pdf', contractId }, h.as(buyer))).artifact!.artifactRef;
    h.fakes.offers.set(contractId, [
      marketV1.Offer.fromPartial({ offerId: 'off_1', contractId, sellerId: seller.agentId, price: { amount: '80', currency: 'CREDIT' }, eta: T, terms: '', status: marketV1.OfferStatus.OFFER_STATUS_AWARDED, createdAt: T, updatedAt: T }),
    ]);
    h.fakes.results.set(contractId, [
      marketV1.Result.fromPartial({ resultId: 'res_1', contractId, sellerId: seller.agentId, summary: 'done', artifactRefs: [resultRef], status: marketV1.ResultStatus.RESULT_STATUS_ACCEPTED, createdAt: T, updatedAt: T }),
    ]);
    h.fakes.reports.set(contractId, marketV1.VerificationReport.fromPartial({ reportId: 'vrp_1', contractId, resultId: 'res_1', verifierId: 'v', verdict: marketV1.Verdict.VERDICT_PASS, score: 0.9, checks: [], signature: 'sig', createdAt: T }));
    h.fakes.disputes.set(contractId, []);
    h.fakes.receipts.set('rcpt_1', walletV1.Receipt.fromPartial({
      receiptId: 'rcpt_1',
      kind: walletV1.ReceiptKind.RECEIPT_KIND_SETTLEMENT,
      contractId,
      holdId: 'hold_1',
      payer: buyer.agentId,
      payee: seller.agentId,
      amount: '80',
      fee: '0.8',
      refundedAmount: '0',
      currency: 'CREDIT',
      journalEntryIds: [],
      settledAt: T,
      signature: 'rsig',
      signerPublicKey: 'rkey',
    }));
    await h.download(resultRef, h.as(buyer));
    await h.client.ackArtifact({ artifactRef: resultRef, agentId: '', signature: h.signJson(buyer, { artifact_ref: resultRef, agent_id: buyer.agentId }) }, h.as(buyer));
  });
  afterAll(() => h.close());

  const docketOf = (d: registryV1.Docket | undefined) => JSON.parse(d!.docketJson) as Docket;

  it("exports a contract's casefile (records, artifacts, receipts, acks), signed; verifies valid; payloads on request", async () => {
    const res = await h.client.exportCasefile({ subject: { contractId, objectIds: [], artifactRefs: [] }, includePayloads: true }, h.as(buyer));
    const docket = docketOf(res.docket);
    expect(docket.docket_id).toMatch(/^dkt_/);
    expect(docket.exchange_pubkey).toBe(h.exchangePublicKey);
    expect(docket.subject).toEqual({ contract_id: contractId });
    const kinds = docket.entries.map((e) => `${e.kind}:${e.ref}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        `contract:${contractId}`,
        'offer:off_1',
        'result:res_1',
        'verification_report:vrp_1',
        'receipt:rcpt_1',
        `artifact:${resultRef}`,
        `artifact:${linkedRef}`,
      ]),
    );
    expect(docket.entries.filter((e) => e.kind === 'delivery_receipt')).toHaveLength(1);
    expect(docket.entries.filter((e) => e.kind === 'ack')).toHaveLength(1);
    const contractEntry = docket.entries.find((e) => e.kind === 'contract')!;
    expect('content' in contractEntry && contractEntry.content).toMatchObject({ contract_id: contractId, buyer_id: buyer.agentId, status: 'awarded' });
    const art = docket.entries.find((e) => e.ref === resultRef)!;
    expect(art).toEqual({ kind: 'artifact', ref: resultRef, sha256: createHash('sha256').update(resultArtifact).digest('hex'), media_type: 'text/markdown', size_bytes: 5000 });
    const read = await readArchive(res.docket!.archive);
    expect(read.payloads.get(art.sha256)!.equals(resultArtifact)).toBe(true);
    expect((await verifyArchive(res.docket!.archive, { trustedPublicKey: h.exchangePublicKey })).valid).toBe(true);

    const verdict = await h.client.verifyCasefile({ input: { $case: 'archive', value: res.docket!.archive } });
    expect(verdict.valid).toBe(true);
    expect(verdict.docketId).toBe(docket.docket_id);
    expect(verdict.checks.every((c) => c.ok)).toBe(true);
    expect(verdict.checks.map((c) => c.ref)).toEqual(expect.arrayContaining(['docket', 'signature', resultRef, contractId]));

    const noPayloads = await h.client.exportCasefile({ subject: { contractId, objectIds: [], artifactRefs: [] }, includePayloads: false }, h.as(seller));
    expect((await readArchive(noPayloads.docket!.archive)).payloads.size).toBe(0);
    const v2 = await h.client.verifyCasefile({ input: { $case: 'docketJson', value: noPayloads.docket!.docketJson } });
    expect(v2.valid).toBe(true);
    expect(v2.checks.find((c) => c.ref === resultRef)).toEqual({ ref: resultRef, ok: true, reason: 'payload not included' });
  });

  it('detects tampering with content, an entry hash, a payload byte and the signature — naming the entry', async () => {
    const res = await h.client.exportCasefile({ subject: { contractId, objectIds: [], artifactRefs: [] }, includePayloads: true }, h.operator());
    const docket = docketOf(res.docket);
    const verify = (d: unknown) => h.client.verifyCasefile({ input: { $case: 'docketJson', value: JSON.stringify(d) } });

    const content = structuredClone(docket);
    const offer = content.entries.find((e) => e.ref === "off_1") as unknown as { content: { price: { amount: string } } };
    offer.content.price.amount = '1';
    let v = await verify(content);
    expect(v.valid).toBe(false);
    // the content no longer matches its hash, and the signed docket changed
    expect(v.checks.filter((c) => !c.ok).map((c) => c.ref).sort()).toEqual(['off_1', 'signature']);

    const hash = structuredClone(docket);
    const rec = hash.entries.find((e) => e.ref === 'rcpt_1')!;
    rec.sha256 = sha256Hex('x');
    v = await verify(hash);
    expect(v.valid).toBe(false);
    expect(v.checks.filter((c) => !c.ok).map((c) => c.ref).sort()).toEqual(['rcpt_1', 'signature']);

    const sig = structuredClone(docket);
    sig.signature = toBase64(new Uint8Array(64));
    v = await verify(sig);
    expect(v.valid).toBe(false);
    expect(v.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual(['signature']);

    // a payload byte changed inside the archive
    const read = await readArchive(res.docket!.archive);
    const hex = createHash('sha256').update(resultArtifact).digest('hex');
    const tarred = zlib.gunzipSync(res.docket!.archive);
    const at = tarred.indexOf(resultArtifact.subarray(0, 64));
    expect(at).toBeGreaterThan(0);
    tarred[at + 10] ^= 0xff;
    const tamperedArchive = zlib.gzipSync(tarred);
    v = await h.client.verifyCasefile({ input: { $case: 'archive', value: tamperedArchive } });
    expect(v.valid).toBe(false);
    expect(v.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual([resultRef]);
    expect(read.payloads.has(hex)).toBe(true);

    // another exchange's key
    const foreign = await h.client.verifyCasefile({
      input: { $case: 'docketJson', value: res.docket!.docketJson },
      exchangePublicKey: toBase64(generateKeyPair().publicKey),
    });
    expect(foreign.valid).toBe(false);

    const unreadable = await grpcError(h.client.verifyCasefile({ input: { $case: 'archive', value: Buffer.from('not a gzip') } }));
    expect([unreadable.grpcCode, unreadable.code]).toEqual([status.INVALID_ARGUMENT, 'casefile_unreadable']);
  });

  it('refuses an archive that inflates past the cap or holds too many members: RESOURCE_EXHAUSTED payload_too_large (issue 12 finding 8)', async () => {
    // ~130 KiB of gzip that inflates to 130 MiB of zeros: refused once past 16 MiB at more than 20-fold.
    const bomb = await gzipStream(function* () {
      for (let i = 0; i < 130; i++) yield Buffer.alloc(1024 * 1024);
    });
    expect(bomb.length).toBeLessThan(256 * 1024);
    const big = await grpcError(h.client.verifyCasefile({ input: { $case: 'archive', value: bomb } }));
    expect([big.grpcCode, big.code, big.message]).toEqual([status.RESOURCE_EXHAUSTED, 'payload_too_large', 'archive expands more than 20 times its compressed size']);

    // 10 001 empty members (tar headers only), past the 10 000 member cap.
    const many = await gzipStream(function* () {
      for (let i = 0; i <= 10_000; i++) yield tarHeader(`f${i}`);
    });
    const crowded = await grpcError(h.client.verifyCasefile({ input: { $case: 'archive', value: many } }));
    expect([crowded.grpcCode, crowded.code, crowded.message]).toEqual([status.RESOURCE_EXHAUSTED, 'payload_too_large', 'archive has more than 10000 files']);
  }, 60_000);

  it("only the contract's parties or the operator export it; subjects need something", async () => {
    const denied = await grpcError(h.client.exportCasefile({ subject: { contractId, objectIds: [], artifactRefs: [] }, includePayloads: false }, h.as(stranger)));
    expect(denied.grpcCode).toBe(status.PERMISSION_DENIED);
    const missing = await grpcError(h.client.exportCasefile({ subject: { contractId: 'ctr_nope', objectIds: [], artifactRefs: [] }, includePayloads: false }, h.operator()));
    expect(missing.code).toBe('contract_not_found');
    const empty = await grpcError(h.client.exportCasefile({ subject: { objectIds: [], artifactRefs: [] }, includePayloads: false }, h.operator()));
    expect(empty.code).toBe('validation_failed');
    const hidden = await grpcError(h.client.exportCasefile({ subject: { objectIds: [], artifactRefs: [linkedRef] }, includePayloads: false }, h.as(stranger)));
    expect(hidden.code).toBe('access_denied');
  });

  it('objects and artifacts as subject; attestation and receipt exports', async () => {
    const payload = { subject_ref: contractId, claim: 'great work' };
    const att = await h.client.storeObject(
      { type: 'attestation', payloadJson: JSON.stringify(payload), signerAgentId: '', signature: h.signJson(buyer, payload), visibility: 0, parties: [], tags: [] },
      h.as(buyer),
    );
    const byObjects = await h.client.exportCasefile({ subject: { objectIds: [att.object!.objectId], artifactRefs: [resultRef] }, includePayloads: true }, h.as(buyer));
    const d = docketOf(byObjects.docket);
    expect(d.entries.map((e) => e.kind).sort()).toEqual(['ack', 'artifact', 'attestation', 'delivery_receipt']);
    const attEntry = d.entries.find((e) => e.kind === "attestation") as unknown as { content: { payload: unknown }; sha256: string };
    expect(attEntry.content.payload).toEqual(payload);
    expect(attEntry.sha256).toBe(sha256Hex(canonicalize(attEntry.content)));

    const exp = await h.client.exportAttestations({ subjectRef: contractId }, h.as(stranger));
    const ad = docketOf(exp.docket);
    expect(ad.entries.map((e) => e.ref)).toEqual([att.object!.objectId]);
    expect((await h.client.verifyCasefile({ input: { $case: 'archive', value: exp.docket!.archive } })).valid).toBe(true);

    const rc = await h.client.exportReceipts({ receiptIds: ['rcpt_1'] }, h.as(seller));
    const rd = docketOf(rc.docket);
    expect(rd.entries.map((e) => `${e.kind}:${e.ref}`)).toEqual(['receipt:rcpt_1']);
    expect((rd.entries[0] as { content: Record<string, unknown> }).content).toMatchObject({ receipt_id: 'rcpt_1', payer: buyer.agentId, amount: '80', kind: 'settlement' });
    const byContract = await h.client.exportReceipts({ receiptIds: [], contractId }, h.as(buyer));
    expect(docketOf(byContract.docket).entries.map((e) => e.ref)).toEqual(['rcpt_1']);
    expect((await grpcError(h.client.exportReceipts({ receiptIds: ['rcpt_1'] }, h.as(stranger)))).code).toBe('access_denied');
    expect((await grpcError(h.client.exportReceipts({ receiptIds: ['rcpt_nope'] }, h.operator()))).code).toBe('receipt_not_found');
  });
  it("per upload (issue 13): a contract's casefile holds only uploads made for it; another agent's upload of the same bytes stays out", async () => {
    // The stranger uploads the result's bytes itself, downloads and acks them: all of it on its own upload.
    const own = await h.upload(resultArtifact, { mediaType: 'text/plain', access: registryV1.Visibility.VISIBILITY_PUBLIC }, h.as(stranger));
    expect(own.artifact).toMatchObject({ artifactRef: resultRef, uploadedBy: stranger.agentId, parties: [] });
    await h.download(resultRef, h.as(stranger));
    await h.client.ackArtifact({ artifactRef: resultRef, agentId: '', signature: h.signJson(stranger, { artifact_ref: resultRef, agent_id: stranger.agentId }) }, h.as(stranger));
    // An operator-only upload made for the contract: the operator's evidence, not the parties'.
    const hidden = (await h.upload(randomBytes(64), { mediaType: 'text/plain', contractId, access: registryV1.Visibility.VISIBILITY_OPERATOR }, h.operator())).artifact!.artifactRef;

    const evidence = (d: Docket) => d.entries.filter((e) => e.kind === 'delivery_receipt' || e.kind === 'ack').map((e) => `${e.kind}:${(e as unknown as { content: { agent_id: string } }).content.agent_id}`).sort();
    const byBuyer = docketOf((await h.client.exportCasefile({ subject: { contractId, objectIds: [], artifactRefs: [] }, includePayloads: true }, h.as(buyer))).docket);
    expect(evidence(byBuyer)).toEqual([`ack:${buyer.agentId}`, `delivery_receipt:${buyer.agentId}`]);
    expect(byBuyer.entries.find((e) => e.ref === resultRef)).toMatchObject({ kind: 'artifact', media_type: 'text/markdown' });
    expect(byBuyer.entries.some((e) => e.ref === hidden)).toBe(false);
    const byOperator = docketOf((await h.client.exportCasefile({ subject: { contractId, objectIds: [], artifactRefs: [] }, includePayloads: false }, h.operator())).docket);
    expect(evidence(byOperator)).toEqual([`ack:${buyer.agentId}`, `delivery_receipt:${buyer.agentId}`]);
    expect(byOperator.entries.some((e) => e.ref === hidden)).toBe(true);

    // By ref, each reads its own upload: the stranger's docket holds its own evidence, the buyer's the seller's upload's.
    const refDocket = async (opts: object) => docketOf((await h.client.exportCasefile({ subject: { objectIds: [], artifactRefs: [resultRef] }, includePayloads: false }, opts)).docket);
    const byStranger = await refDocket(h.as(stranger));
    expect(evidence(byStranger)).toEqual([`ack:${stranger.agentId}`, `delivery_receipt:${stranger.agentId}`]);
    expect(byStranger.entries.find((e) => e.ref === resultRef)).toMatchObject({ media_type: 'text/plain' });
    expect(evidence(await refDocket(h.as(buyer)))).toEqual([`ack:${buyer.agentId}`, `delivery_receipt:${buyer.agentId}`]);
  });
});
