import type { Readable } from 'node:stream';
import {
  CasefileTooLargeError,
  CasefileUnreadableError,
  docketJson,
  signDocket,
  verifyArchive,
  verifyDocket,
  writeArchive,
  type DocketSubject,
} from '@exchange/casefile';
import { errors } from '@exchange/platform';
import { viewerOf, type Caller } from '../domain/caller';
import { isContentRef } from '../domain/ids';
import { ATTESTATION_TYPE } from '../domain/validation';
import type { ArtifactUpload, RegistryObject } from '../domain/records';
import type { ArtifactAccess } from '../artifacts/artifact-access.service';
import { artifactsRepo } from '../artifacts/artifacts.repo';
import type { AttestationQuery, AttestationsService } from '../attestations/attestations.service';
import type { ObjectsService } from '../objects/objects.service';
import type { RegistryContext } from '../service/context';
import type { MarketContract } from './casefile-sources';
import { EntrySet } from './entry-set';
import { ackView, deliveryReceiptView, objectView } from './views';

/** Most records one docket holds (attestation exports, object lists). */
export const MAX_EXPORT_RECORDS = 5000;

export interface CasefileSubject {
  contractId?: string;
  objectIds: string[];
  artifactRefs: string[];
}

export type ReceiptsExport = { receiptIds: string[]; contractId?: string };

/** The docket as JSON text and the archive (docket.json plus the artifact payloads). */
export interface SealedDocket {
  docketJson: string;
  archive: Buffer;
}

export type CasefileInput = { kind: 'docket_json'; json: string } | { kind: 'archive'; bytes: Uint8Array };

export interface CasefileVerdict {
  valid: boolean;
  docketId: string;
  checks: Array<{ ref: string; ok: boolean; reason?: string }>;
}

/** What the casefile exports use of the start-up context: records, signing and the stored bytes. */
export type CasefilesDeps = Pick<RegistryContext, 'pool' | 'clock' | 'signingKey' | 'exchangePublicKey' | 'store' | 'sources'>;

export class CasefilesService {
  constructor(
    private readonly ctx: CasefilesDeps,
    private readonly objects: Pick<ObjectsService, 'readable'>,
    private readonly attestations: Pick<AttestationsService, 'all'>,
    private readonly artifacts: ArtifactAccess,
  ) {}

  async exportCasefile(subjectIn: CasefileSubject | undefined, includePayloads: boolean, caller: Caller): Promise<SealedDocket> {
    const subject = subjectIn ?? { objectIds: [], artifactRefs: [] };
    const contractId = subject.contractId ?? '';
    if (contractId === '' && subject.objectIds.length === 0 && subject.artifactRefs.length === 0) {
      throw errors.invalidArgument('validation_failed', 'subject needs contract_id, object_ids or artifact_refs', { field: 'subject' });
    }
    if (subject.objectIds.length + subject.artifactRefs.length > MAX_EXPORT_RECORDS) {
      throw errors.invalidArgument('export_too_large', `at most ${MAX_EXPORT_RECORDS} objects and artifacts`, { max: MAX_EXPORT_RECORDS });
    }
    const set = new EntrySet();
    const artifactRows: ArtifactUpload[] = [];
    if (contractId !== '') artifactRows.push(...(await this.addContract(set, contractId, caller)));
    for (const id of subject.objectIds) this.addObject(set, await this.objects.readable(id, caller));
    // Each ref as the caller reads it: the one upload GetArtifact answers it with.
    for (const ref of subject.artifactRefs) artifactRows.push(await this.artifacts.readable(ref, caller));
    await this.addArtifacts(set, artifactRows, includePayloads, caller);
    const docketSubject: DocketSubject = {};
    if (contractId !== '') docketSubject.contract_id = contractId;
    if (subject.objectIds.length > 0) docketSubject.object_ids = subject.objectIds;
    if (subject.artifactRefs.length > 0) docketSubject.artifact_refs = subject.artifactRefs;
    return this.seal(docketSubject, set);
  }

  async exportAttestations(req: AttestationQuery, caller: Caller): Promise<SealedDocket> {
    const rows = await this.attestations.all(req, caller, MAX_EXPORT_RECORDS);
    const set = new EntrySet();
    for (const row of rows) this.addObject(set, row);
    const subject: DocketSubject = { attestations: {} };
    const filters = subject.attestations as Record<string, string>;
    if (req.subjectRef) filters.subject_ref = req.subjectRef;
    if (req.signerAgentId) filters.signer_agent_id = req.signerAgentId;
    if (req.from) filters.from = req.from.toISOString();
    if (req.to) filters.to = req.to.toISOString();
    return this.seal(subject, set);
  }

  async exportReceipts(req: ReceiptsExport, caller: Caller): Promise<SealedDocket> {
    const contractId = req.contractId ?? '';
    if ((contractId === '') === (req.receiptIds.length === 0)) {
      throw errors.invalidArgument('validation_failed', 'give either receipt_ids or contract_id', { field: 'receipt_ids' });
    }
    if (req.receiptIds.length > MAX_EXPORT_RECORDS) throw errors.invalidArgument('export_too_large', `at most ${MAX_EXPORT_RECORDS} receipts`, { max: MAX_EXPORT_RECORDS });
    const set = new EntrySet();
    const viewer = viewerOf(caller);
    if (contractId !== '') {
      const contract = await this.contractFor(contractId, caller);
      for (const r of await this.ctx.sources.contractReceipts(contract)) set.add(r.record);
    } else {
      for (const id of [...new Set(req.receiptIds)]) {
        const r = await this.ctx.sources.receipt(id);
        if (!r) throw errors.notFound('receipt', id);
        if (viewer.kind !== 'operator' && !(viewer.kind === 'agent' && (r.payer === viewer.agentId || r.payee === viewer.agentId))) {
          throw errors.permissionDenied('access_denied', `you may not read receipt ${id}`);
        }
        set.add(r.record);
      }
    }
    const subject: DocketSubject = contractId !== '' ? { receipts_of_contract: contractId } : { receipt_ids: [...new Set(req.receiptIds)] };
    return this.seal(subject, set);
  }

  /** Checks a docket or an archive against `exchangePublicKey` ("" → this exchange's key). */
  async verify(input: CasefileInput | undefined, exchangePublicKey: string): Promise<CasefileVerdict> {
    const trustedPublicKey = exchangePublicKey || this.ctx.exchangePublicKey;
    if (input === undefined) throw errors.invalidArgument('validation_failed', 'give docket_json or archive', { field: 'input' });
    let verdict;
    if (input.kind === 'docket_json') {
      let docket: unknown;
      try {
        docket = JSON.parse(input.json);
      } catch {
        throw errors.invalidArgument('casefile_unreadable', 'docket is not JSON');
      }
      verdict = verifyDocket(docket, { trustedPublicKey });
    } else {
      try {
        // Streamed with libs/casefile's limits: a bomb stops at the inflation cap (413).
        verdict = await verifyArchive(input.bytes, { trustedPublicKey });
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

  private addObject(set: EntrySet, row: RegistryObject): void {
    set.record(row.type === ATTESTATION_TYPE ? 'attestation' : 'object', row.objectId, objectView(row));
  }

  /**
   * One entry per ref (the bytes), and the delivery receipts and acks of the given uploads the
   * caller is a party of (all for the operator) — never those of another upload of the same bytes.
   */
  private async addArtifacts(set: EntrySet, rows: ArtifactUpload[], includePayloads: boolean, caller: Caller): Promise<void> {
    if (rows.length === 0) return;
    for (const a of rows) set.artifact(a, includePayloads);
    const uploadIds: string[] = [];
    for (const a of rows) if (!uploadIds.includes(a.uploadId) && (await this.artifacts.seesEvidenceOf(a, caller))) uploadIds.push(a.uploadId);
    if (uploadIds.length === 0) return;
    for (const r of await artifactsRepo.allReceipts(this.ctx.pool, uploadIds)) set.record('delivery_receipt', r.deliveryReceiptId, deliveryReceiptView(r));
    for (const a of await artifactsRepo.listAcks(this.ctx.pool, uploadIds)) set.record('ack', a.ackId, ackView(a));
  }

  private async contractFor(contractId: string, caller: Caller): Promise<MarketContract> {
    const contract = await this.ctx.sources.contract(contractId);
    const viewer = viewerOf(caller);
    const isParty = viewer.kind === 'agent' && (viewer.agentId === contract.buyerId || viewer.agentId === contract.sellerId);
    if (viewer.kind !== 'operator' && !isParty) {
      throw errors.permissionDenied('not_contract_party', `only the parties of contract ${contractId} or the operator may export it`, { contract_id: contractId });
    }
    return contract;
  }

  /** The contract and what hangs off it; returns the artifacts to add (referenced or linked). */
  private async addContract(set: EntrySet, contractId: string, caller: Caller): Promise<ArtifactUpload[]> {
    const contract = await this.contractFor(contractId, caller);
    set.add(contract.record);
    const { records, resultArtifactRefs } = await this.ctx.sources.contractRecords(contract);
    for (const r of records) set.add(r);

    // Only uploads made for this contract, plus — for bytes its results name that were not uploaded
    // for it — the contract-less uploads of its buyer or seller; never another contract's or another
    // agent's upload of the same bytes. Each only when the caller may read it.
    const refs = new Set(resultArtifactRefs);
    const rows = await artifactsRepo.uploadsForContract(this.ctx.pool, contractId);
    const linked = new Set(rows.map((a) => a.artifactRef));
    const parties = [contract.buyerId, contract.sellerId ?? ''].filter((p) => p !== '');
    for (const ref of refs) {
      if (linked.has(ref) || !isContentRef(ref)) continue;
      for (const a of await artifactsRepo.uploadsOf(this.ctx.pool, ref)) if (a.contractId === null && parties.includes(a.uploadedBy)) rows.push(a);
    }
    return this.artifacts.visible(rows, caller).then((readable) => rows.filter((a) => readable.includes(a)));
  }

  private async seal(subject: DocketSubject, set: EntrySet): Promise<SealedDocket> {
    const docket = signDocket({ subject, entries: set.entries, createdAt: this.ctx.clock() }, this.ctx.signingKey);
    const payloads = new Map<string, Readable>();
    for (const [hex] of set.payloads) payloads.set(hex, await this.ctx.store.get(hex));
    const archive = await writeArchive(docket, payloads);
    return { docketJson: docketJson(docket), archive };
  }
}
