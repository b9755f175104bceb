import { errors } from '@exchange/platform';
import { viewerOf, type Caller, type Viewer } from '../domain/caller';
import { isContentRef } from '../domain/ids';
import type { ArtifactUpload } from '../domain/records';
import type { RegistryContext } from '../service/context';
import { artifactsRepo } from './artifacts.repo';
import { visibleUploads } from './uploads';

/** What deciding who reads an upload uses of the start-up context: the uploads and the contracts' parties. */
export type ArtifactAccessDeps = Pick<RegistryContext, 'pool' | 'contracts'>;

/**
 * Which uploads of some bytes a caller may read, and which one a read answers with
 * (uploads.ts): shared by the artifact use cases and the casefile exports.
 */
export class ArtifactAccess {
  constructor(private readonly ctx: ArtifactAccessDeps) {}

  /** Everyone who counts as a party of the upload: uploader, listed parties, contract's buyer and seller. */
  async partiesOf(a: ArtifactUpload): Promise<string[]> {
    const parties = [a.uploadedBy, ...a.parties].filter((p) => p !== '');
    if (a.contractId !== null) {
      const c = await this.ctx.contracts.parties(a.contractId);
      parties.push(c.buyerId);
      if (c.sellerId) parties.push(c.sellerId);
    }
    return parties;
  }

  /** What decides the viewer's standing on the upload; the contract's parties only when they can change it. */
  private async standingParties(row: ArtifactUpload, viewer: Viewer): Promise<string[]> {
    const direct = [row.uploadedBy, ...row.parties].filter((p) => p !== '');
    if (viewer.kind !== 'agent' || direct.includes(viewer.agentId) || row.contractId === null) return direct;
    return this.partiesOf(row);
  }

  /** The uploads among `rows` the caller may read, best first (uploads.ts). */
  async visible(rows: ArtifactUpload[], caller: Caller): Promise<ArtifactUpload[]> {
    const viewer = viewerOf(caller);
    const facts = await Promise.all(
      rows.map(async (row) => ({ row, uploadedBy: row.uploadedBy, access: row.access, parties: await this.standingParties(row, viewer) })),
    );
    return visibleUploads(viewer, facts).map((f) => f.row);
  }

  /** Every upload of the bytes, oldest first (404 artifact_not_found when nobody uploaded them). */
  async uploadsOf(ref: string): Promise<ArtifactUpload[]> {
    if (!isContentRef(ref)) throw errors.notFound('artifact', ref);
    const rows = await artifactsRepo.uploadsOf(this.ctx.pool, ref);
    if (rows.length === 0) throw errors.notFound('artifact', ref);
    return rows;
  }

  /**
   * The upload of `ref` a read answers with, for this caller: its own upload first, else one it is
   * a party of, else a public one (the operator: its own, else the oldest). 404 artifact_not_found
   * when nobody uploaded the bytes, 403 access_denied when the caller may read no upload of them.
   */
  async readable(ref: string, caller: Caller): Promise<ArtifactUpload> {
    const [best] = await this.visible(await this.uploadsOf(ref), caller);
    if (best === undefined) throw errors.permissionDenied('access_denied', `you may not read artifact ${ref}`);
    return best;
  }

  /** Whether the caller is the operator or a party (uploader, listed, contract's) of the upload: it sees its receipts and acks. */
  async seesEvidenceOf(row: ArtifactUpload, caller: Caller): Promise<boolean> {
    const viewer = viewerOf(caller);
    if (viewer.kind === 'operator') return true;
    return viewer.kind === 'agent' && (await this.partiesOf(row)).includes(viewer.agentId);
  }
}
