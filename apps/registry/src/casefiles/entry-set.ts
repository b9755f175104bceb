import { artifactEntry, recordEntry, type DocketEntry, type RecordKind } from '@exchange/casefile';
import { hexOfRef } from '../domain/ids';
import type { ArtifactUpload } from '../domain/records';
import type { CasefileRecord } from './casefile-sources';

/** Collects docket entries once each (kind + ref) and the artifact bytes to put in the archive. */
export class EntrySet {
  readonly entries: DocketEntry[] = [];
  readonly payloads = new Map<string, ArtifactUpload>();
  private readonly seen = new Set<string>();

  record(kind: RecordKind, ref: string, content: unknown): void {
    const key = `${kind}|${ref}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push(recordEntry(kind, ref, content));
  }

  add(r: CasefileRecord): void {
    this.record(r.kind, r.ref, r.content);
  }

  artifact(a: ArtifactUpload, withPayload: boolean): void {
    const key = `artifact|${a.artifactRef}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push(artifactEntry(a.artifactRef, hexOfRef(a.artifactRef), a.mediaType, a.sizeBytes));
    if (withPayload && a.status === 'active') this.payloads.set(hexOfRef(a.artifactRef), a);
  }
}
