import { canRead, type Visibility } from '../domain/access';
import type { Viewer } from '../domain/caller';

// Content addressing is a storage detail: the same bytes may have several uploads, each with its
// own uploader, contract, access and parties. Which of them a viewer sees, and in what order.

export interface UploadFacts {
  uploadedBy: string;
  access: Visibility;
  /** Everyone who counts as a party of this upload: uploader, listed parties, contract's buyer and seller. */
  parties: readonly string[];
}

/**
 * How well the upload answers this viewer, lower first; null when the viewer may not read it.
 * 0: the viewer's own upload (the operator's own: uploaded_by ""), 1: one it is a party of,
 * 2: any other it may read (public, or everything for the operator).
 */
export function uploadRank(viewer: Viewer, u: UploadFacts): 0 | 1 | 2 | null {
  if (!canRead(u.access, viewer, u.parties)) return null;
  if (viewer.kind === 'operator') return u.uploadedBy === '' ? 0 : 2;
  if (viewer.kind === 'agent') {
    if (u.uploadedBy === viewer.agentId) return 0;
    if (u.parties.includes(viewer.agentId)) return 1;
  }
  return 2;
}

/**
 * The uploads the viewer may read, best first: by rank, then oldest first (the input order,
 * which is created_at, upload_id). The first one is what a read of the artifact answers with.
 */
export function visibleUploads<T extends UploadFacts>(viewer: Viewer, uploads: readonly T[]): T[] {
  const ranked: Array<{ u: T; rank: number; i: number }> = [];
  uploads.forEach((u, i) => {
    const rank = uploadRank(viewer, u);
    if (rank !== null) ranked.push({ u, rank, i });
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.i - b.i).map((r) => r.u);
}
