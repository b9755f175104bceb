export {
  RECORD_KINDS,
  type ArtifactEntry,
  type ArtifactKind,
  type CasefileCheck,
  type Docket,
  type DocketEntry,
  type DocketSubject,
  type EntryKind,
  type JsonValue,
  type RecordEntry,
  type RecordKind,
  type UnsignedDocket,
  type VerifyResult,
} from './types';
export { CasefileInputError, CasefileTooLargeError, CasefileUnreadableError } from './errors';
export { artifactEntry, contentSha256, docketJson, newDocketId, recordEntry, signDocket, unsignedDocket, type SignDocketInput } from './docket';
export { verifyDocket, type PayloadDigest, type VerifyDocketOptions } from './verify';
export { PAYLOAD_DIR, readArchive, verifyArchive, writeArchive, type ReadArchive, type VerifyArchiveOptions } from './archive';
export { DEFAULT_ARCHIVE_LIMITS, DOCKET_FILE, type ArchiveInput, type ArchiveLimits } from './archive-reader';
