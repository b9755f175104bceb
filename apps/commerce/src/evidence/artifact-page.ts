import { decodeCursor, encodeCursor, errors, resolveLimit } from '@exchange/platform';
import { verifyChain } from './evidence-chain';
import type { EvidenceRecord } from './evidence.model';

// ListArtifacts pages a session's evidence in chain order (seq ascending). The cursor is the
// platform's opaque cursor of the last item given, with id "<seq>:<evidence_id>".

const SEQ_ID = /^([1-9]\d{0,9}):evd_/;

export function artifactCursor(item: EvidenceRecord): string {
  return encodeCursor({ createdAt: item.recordedAt, id: `${item.seq}:${item.evidenceId}` });
}

/** The seq a cursor continues after; anything this list did not give out → 400 invalid_cursor. */
export function seqAfterCursor(cursor: string): number {
  const { id } = decodeCursor(cursor);
  const m = SEQ_ID.exec(id);
  if (!m) throw errors.invalidArgument('invalid_cursor', 'cursor is not valid');
  return Number(m[1]);
}

export interface ArtifactPage {
  items: EvidenceRecord[];
  nextCursor: string;
  chainValid: boolean;
}

/**
 * One page of the whole chain `all` (seq order). chainValid: every item recomputes, there are as
 * many as the session counts, and they reach the session's head.
 */
export function artifactPage(all: EvidenceRecord[], head: { seq: number; hash: string }, page: { limit?: number; cursor?: string } | undefined): ArtifactPage {
  const limit = resolveLimit(page?.limit);
  const after = page?.cursor ? seqAfterCursor(page.cursor) : 0;
  const rest = all.filter((item) => item.seq > after);
  const items = rest.slice(0, limit);
  const nextCursor = rest.length > limit ? artifactCursor(items[items.length - 1]) : '';
  const chain = verifyChain(all);
  return { items, nextCursor, chainValid: chain.valid && all.length === head.seq && chain.head === head.hash };
}
