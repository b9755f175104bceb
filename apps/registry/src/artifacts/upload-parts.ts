import { errors } from '@exchange/platform';

// An upload's messages after its metadata: chunks, then one commit. The bytes are staged while
// they arrive and become visible only when the commit arrives: the caller (the gateway) sends it
// once the request is authenticated, so a refused, cancelled or cut-off upload stores nothing.
// A transport cancel can look like a clean end of stream, which is why "ended" never means "commit".

export type UploadPart = { kind: 'chunk'; bytes: Uint8Array } | { kind: 'commit'; contentSha256: string };

export interface CommittedChunks {
  /** The chunks up to the commit; throws ABORTED `upload_not_committed` when the parts end first. */
  chunks: AsyncIterable<Uint8Array>;
  /** The commit, once `chunks` has been read to its end (null before). */
  commit(): { contentSha256: string } | null;
}

export function chunksUntilCommit(parts: AsyncIterable<UploadPart>): CommittedChunks {
  let commit: { contentSha256: string } | null = null;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for await (const part of parts) {
      if (part.kind === 'commit') {
        commit = { contentSha256: part.contentSha256 };
        return; // the last message: anything after it is not read
      }
      yield part.bytes;
    }
    throw errors.aborted('upload_not_committed', 'the upload ended without its commit message; nothing was stored');
  }
  return { chunks: chunks(), commit: () => commit };
}
