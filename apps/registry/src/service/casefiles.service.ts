import type { Readable } from 'node:stream';
import { status } from '@grpc/grpc-js';
import {
  artifactEntry,
  CasefileTooLargeError,
  CasefileUnreadableError,
  docketJson,
  recordEntry,
  signDocket,
  verifyArchive,
  verifyDocket,
  writeArchive,
  type DocketEntry,
  type DocketSubject,
  type RecordKind,
} from '@exchange/casefile';
import { errorInfoFromGrpc, errors, type CallOptions } from '@exchange/platform';
import { marketV1, walletV1, type registryV1 } from '@exchange/proto';
import { viewerOf, type Caller } from '../domain/caller';
import { hexOfRef, isContentRef } from '../domain/ids';
import { ATTESTATION_TYPE } from '../domain/validation';
import { ackView, deliveryReceiptView, objectView, publicJson } from '../domain/views';
import { artifactsRepo, type ArtifactRow, type ObjectRow } from '../data/registry.repo';
import type { ArtifactsService } from './artifacts.service';
import type { RegistryContext } from './context';
import type { ObjectsService } from './objects.service';

/** Most records one docket holds (attestation exports, object lists). */
export const MAX_EXPORT_RECORDS = 5000;
/** Registry reads market and wallet records for casefiles as an internal operator. */
const INTERNAL: CallOptions = { actor: 'operator:registry' };
const PAGE = 200;

/** Collects docket entries once each (kind + ref) and the artifact bytes to put in the archive. */
class EntrySet {
  readonly entries: DocketEntry[] = [];
  readonly payloads = new Map<string, ArtifactRow>();
  private readonly seen = new Set<string>();

  record(kind: RecordKind, ref: string, content: unknown): void {
    const key = `${kind}|${ref}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push(recordEntry(kind, ref, content));
  }

  artifact(a: ArtifactRow, withPayload: boolean): void {
    const key = `artifact|${a.artifactRef}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push(artifactEntry(a.artifactRef, hexOfRef(a.artifactRef), a.mediaType, a.sizeBytes));
    if (withPayload && a.status === 'active') this.payloads.set(hexOfRef(a.artifactRef), a);
  }
}

export class CasefilesService {
  constructor(
    private readonly ctx: RegistryContext,
    private readonly objects: ObjectsService,
    private readonly artifacts: ArtifactsService,
  ) {}

  async exportCasefile(req: registryV1.ExportCasefileRequest, caller: Caller): Promise<registryV1.ExportCasefileResponse> {
    const subject = req.subject ?? { objectIds: [], artifactRefs: [] };
    const contractId = subject.contractId ?? '';
    if (contractId === '' && subject.objectIds.length === 0 && subject.artifactRefs.length === 0) {
      throw errors.invalidArgument('validation_failed', 'subject needs contract_id, object_ids or artifact_refs', { field: 'subject' });
    }
    if (subject.objectIds.length + subject.artifactRefs.length > MAX_EXPORT_RECORDS) {
      throw errors.invalidArgument('export_too_large', `at most ${MAX_EXPORT_RECORDS} objects and artifacts`, { max: MAX_EXPORT_RECORDS });
    }
    const set = new EntrySet();
    const artifactRows: ArtifactRow[] = [];
    if (contractId !== '') artifactRows.push(...(await this.addContract(set, contractId, caller)));
    for (const id of subject.objectIds) this.addObject(set, await this.objects.readable(id, caller));
    // Each ref as the caller reads it: the one upload GetArtifact answers it with.
    for (const ref of subject.artifactRefs) artifactRows.push(await this.artifacts.readable(ref, caller));
    await this.addArtifacts(set, artifactRows, req.includePayloads, caller);
    const docketSubject: DocketSubject = {};
    if (contractId !== '') docketSubject.contract_id = contractId;
    if (subject.objectIds.length > 0) docketSubject.object_ids = subject.objectIds;
    if (subject.artifactRefs.length > 0) docketSubject.artifact_refs = subject.artifactRefs;
    return { docket: await this.seal(docketSubject, set) };
  }

  async exportAttestations(req: registryV1.ExportAttestationsRequest, caller: Caller): Promise<registryV1.ExportAttestationsResponse> {
    const rows = await this.objects.allAttestations(req, caller, MAX_EXPORT_RECORDS);
    const set = new EntrySet();
    for (const row of rows) this.addObject(set, row);
    const subject: DocketSubject = { attestations: {} };
    const filters = subject.attestations as Record<string, string>;
    if (req.subjectRef) filters.subject_ref = req.subjectRef;
    if (req.signerAgentId) filters.signer_agent_id = req.signerAgentId;
    if (req.from) filters.from = req.from.toISOString();
    if (req.to) filters.to = req.to.toISOString();
    return { docket: await this.seal(subject, set) };
  }

  async exportReceipts(req: registryV1.ExportReceiptsRequest, caller: Caller): Promise<registryV1.ExportReceiptsResponse> {
    const contractId = req.contractId ?? '';
    if ((contractId === '') === (req.receiptIds.length === 0)) {
      throw errors.invalidArgument('validation_failed', 'give either receipt_ids or contract_id', { field: 'receipt_ids' });
    }
    if (req.receiptIds.length > MAX_EXPORT_RECORDS) throw errors.invalidArgument('export_too_large', `at most ${MAX_EXPORT_RECORDS} receipts`, { max: MAX_EXPORT_RECORDS });
    const set = new EntrySet();
    const viewer = viewerOf(caller);
    if (contractId !== '') {
      const contract = await this.contractFor(contractId, caller);
      for (const r of await this.contractReceipts(contract)) set.record('receipt', r.receiptId, publicJson(walletV1.Receipt.toJSON(r)));
    } else {
      for (const id of [...new Set(req.receiptIds)]) {
        const r = await this.receipt({ receiptId: id, contractId: '' });
        if (!r) throw errors.notFound('receipt', id);
        if (viewer.kind !== 'operator' && !(viewer.kind === 'agent' && (r.payer === viewer.agentId || r.payee === viewer.agentId))) {
          throw errors.permissionDenied('access_denied', `you may not read receipt ${id}`);
        }
        set.record('receipt', r.receiptId, publicJson(walletV1.Receipt.toJSON(r)));
      }
    }
    const subject: DocketSubject = contractId !== '' ? { receipts_of_contract: contractId } : { receipt_ids: [...new Set(req.receiptIds)] };
    return { docket: await this.seal(subject, set) };
  }

  async verify(req: registryV1.VerifyCasefileRequest): Promise<registryV1.VerifyCasefileResponse> {
    const trustedPublicKey = req.exchangePublicKey || this.ctx.exchangePublicKey;
    const input = req.input;
    if (input === undefined) throw errors.invalidArgument('validation_failed', 'give docket_json or archive', { field: 'input' });
    let verdict;
    if (input.$case === 'docketJson') {
      let docket: unknown;
      try {
        docket = JSON.parse(input.value);
      } catch {
        throw errors.invalidArgument('casefile_unreadable', 'docket is not JSON');
      }
      verdict = verifyDocket(docket, { trustedPublicKey });
    } else {
      try {
        // Streamed with libs/casefile's limits: a bomb stops at the inflation cap (413).
        verdict = await verifyArchive(input.value, { trustedPublicKey });
      } catch (err) {
        if (err instanceof CasefileTooLargeError) throw errors.resourceExhausted('payload_too_large', err.message);
        if (err instanceof CasefileUnreadableError) throw errors.invalidArgument('casefile_unreadable', err.message);
        throw err;
      }
    }
    return {
      valid: verdict.valid,
      docketId: verdict.docket_id,
      checks: verdict.checks.map((c) => ({ ref: c.ref, ok: c.ok, ...(c.reason !== undefined ? { reason: c.reason } : {}) })),
    };
  }

  // --- building -------------------------------------------------------------------------------

  private addObject(set: EntrySet, row: ObjectRow): void {
    set.record(row.type === ATTESTATION_TYPE ? 'attestation' : 'object', row.objectId, objectView(row));
  }

  /**
   * One entry per ref (the bytes), and the delivery receipts and acks of the given uploads the
   * caller is a party of (all for the operator) — never those of another upload of the same bytes.
   */
  private async addArtifacts(set: EntrySet, rows: ArtifactRow[], includePayloads: boolean, caller: Caller): Promise<void> {
    if (rows.length === 0) return;
    for (const a of rows) set.artifact(a, includePayloads);
    const uploadIds: string[] = [];
    for (const a of rows) if (!uploadIds.includes(a.uploadId) && (await this.artifacts.seesEvidenceOf(a, caller))) uploadIds.push(a.uploadId);
    if (uploadIds.length === 0) return;
    for (const r of await artifactsRepo.allReceipts(this.ctx.pool, uploadIds)) set.record('delivery_receipt', r.deliveryReceiptId, deliveryReceiptView(r));
    for (const a of await artifactsRepo.listAcks(this.ctx.pool, uploadIds)) set.record('ack', a.ackId, ackView(a));
  }

  private async contractFor(contractId: string, caller: Caller): Promise<marketV1.Contract> {
    const contract = await this.ctx.contracts.contract(contractId);
    const viewer = viewerOf(caller);
    const isParty = viewer.kind === 'agent' && (viewer.agentId === contract.buyerId || viewer.agentId === contract.sellerId);
    if (viewer.kind !== 'operator' && !isParty) {
      throw errors.permissionDenied('not_contract_party', `only the parties of contract ${contractId} or the operator may export it`, { contract_id: contractId });
    }
    return contract;
  }

  /** The contract and what hangs off it; returns the artifacts to add (referenced or linked). */
  private async addContract(set: EntrySet, contractId: string, caller: Caller): Promise<ArtifactRow[]> {
    const contract = await this.contractFor(contractId, caller);
    const market = this.ctx.contracts.client;
    const call = async <T>(fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn();
      } catch (err) {
        throw this.ctx.contracts.translate(err, contractId);
      }
    };
    set.record('contract', contract.contractId, publicJson(marketV1.Contract.toJSON(contract)));
    const offers = await call(() => pageAll((page) => market.listOffers({ contractId, page }, INTERNAL), (r) => r.offers));
    for (const o of offers) set.record('offer', o.offerId, publicJson(marketV1.Offer.toJSON(o)));
    const results = await call(() => pageAll((page) => market.listResults({ contractId, page }, INTERNAL), (r) => r.results));
    for (const r of results) set.record('result', r.resultId, publicJson(marketV1.Result.toJSON(r)));
    for (const v of await call(() => this.verificationReports(contractId))) {
      set.record('verification_report', v.reportId, publicJson(marketV1.VerificationReport.toJSON(v)));
    }
    const disputes = await call(() => pageAll((page) => market.listDisputes({ contractId, page }, INTERNAL), (r) => r.disputes));
    for (const d of disputes) set.record('dispute', d.disputeId, publicJson(marketV1.Dispute.toJSON(d)));
    for (const r of await this.contractReceipts(contract, disputes)) set.record('receipt', r.receiptId, publicJson(walletV1.Receipt.toJSON(r)));

    // Only uploads made for this contract, plus — for bytes its results name that were not uploaded
    // for it — the contract-less uploads of its buyer or seller; never another contract's or another
    // agent's upload of the same bytes. Each only when the caller may read it.
    const refs = new Set(results.flatMap((r) => r.artifactRefs));
    const rows = await artifactsRepo.uploadsForContract(this.ctx.pool, contractId);
    const linked = new Set(rows.map((a) => a.artifactRef));
    const parties = [contract.buyerId, contract.sellerId ?? ''].filter((p) => p !== '');
    for (const ref of refs) {
      if (linked.has(ref) || !isContentRef(ref)) continue;
      for (const a of await artifactsRepo.uploadsOf(this.ctx.pool, ref)) if (a.contractId === null && parties.includes(a.uploadedBy)) rows.push(a);
    }
    return this.artifacts.visible(rows, caller).then((readable) => rows.filter((a) => readable.includes(a)));
  }

  /** Market ListVerificationReports when this market has it, else its latest report. */
  private async verificationReports(contractId: string): Promise<marketV1.VerificationReport[]> {
    const market = this.ctx.contracts.client as unknown as Record<string, unknown>;
    const list = market['listVerificationReports'] as
      | ((req: unknown, opts?: CallOptions) => Promise<{ reports?: marketV1.VerificationReport[]; page?: { nextCursor: string } }>)
      | undefined;
    if (typeof list === 'function') {
      try {
        return await pageAll((page) => list.call(market, { contractId, page }, INTERNAL), (r) => r.reports ?? []);
      } catch (err) {
        // A market older than this registry's proto: fall back to the latest report.
        if (errorInfoFromGrpc(err).grpcCode !== status.UNIMPLEMENTED) throw err;
      }
    }
    try {
      const { report } = await this.ctx.contracts.client.getLatestVerification({ contractId }, INTERNAL);
      return report ? [report] : [];
    } catch (err) {
      if (errorInfoFromGrpc(err).grpcCode === status.NOT_FOUND) return [];
      throw err;
    }
  }

  private async contractReceipts(contract: marketV1.Contract, disputes?: marketV1.Dispute[]): Promise<walletV1.Receipt[]> {
    const ds =
      disputes ??
      (await pageAll((page) => this.ctx.contracts.client.listDisputes({ contractId: contract.contractId, page }, INTERNAL), (r) => r.disputes));
    const ids = new Set<string>();
    if (contract.receiptId) ids.add(contract.receiptId);
    for (const d of ds) if (d.receiptId) ids.add(d.receiptId);
    const out = new Map<string, walletV1.Receipt>();
    const latest = await this.receipt({ receiptId: '', contractId: contract.contractId });
    if (latest) out.set(latest.receiptId, latest);
    for (const id of ids) {
      if (out.has(id)) continue;
      const r = await this.receipt({ receiptId: id, contractId: '' });
      if (r) out.set(r.receiptId, r);
    }
    return [...out.values()].sort((a, b) => (a.settledAt?.getTime() ?? 0) - (b.settledAt?.getTime() ?? 0) || a.receiptId.localeCompare(b.receiptId));
  }

  private async receipt(req: walletV1.GetReceiptRequest): Promise<walletV1.Receipt | null> {
    try {
      const { receipt } = await this.ctx.wallet.getReceipt(req, INTERNAL);
      return receipt ?? null;
    } catch (err) {
      const info = errorInfoFromGrpc(err);
      if (info.grpcCode === status.NOT_FOUND || info.grpcCode === status.INVALID_ARGUMENT) return null;
      this.ctx.logger.warn({ err: info.message, code: info.code }, 'wallet receipt lookup failed');
      throw errors.unavailable('wallet_unavailable', 'wallet-ledger unavailable');
    }
  }

  private async seal(subject: DocketSubject, set: EntrySet): Promise<registryV1.Docket> {
    const docket = signDocket({ subject, entries: set.entries, createdAt: this.ctx.clock() }, this.ctx.signingKey);
    const payloads = new Map<string, Readable>();
    for (const [hex] of set.payloads) payloads.set(hex, await this.ctx.store.get(hex));
    const archive = await writeArchive(docket, payloads);
    return { docketJson: docketJson(docket), archive };
  }
}

async function pageAll<R, T>(fetch: (page: { limit: number; cursor: string }) => Promise<R & { page?: { nextCursor: string } }>, items: (r: R) => T[]): Promise<T[]> {
  const out: T[] = [];
  let cursor = '';
  for (let i = 0; i < 100; i++) {
    const res = await fetch({ limit: PAGE, cursor });
    out.push(...items(res));
    cursor = res.page?.nextCursor ?? '';
    if (cursor === '') return out;
  }
  throw errors.invalidArgument('export_too_large', 'too many records to export');
}
