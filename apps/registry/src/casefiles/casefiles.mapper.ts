import type { registryV1 } from '@exchange/proto';
import type { CasefileInput, CasefileSubject, SealedDocket } from './casefiles.service';

export function casefileSubject(s: registryV1.CasefileSubject | undefined): CasefileSubject | undefined {
  if (s === undefined) return undefined;
  const subject: CasefileSubject = { objectIds: s.objectIds, artifactRefs: s.artifactRefs };
  if (s.contractId !== undefined) subject.contractId = s.contractId;
  return subject;
}

export function casefileInput(input: registryV1.VerifyCasefileRequest['input']): CasefileInput | undefined {
  if (input === undefined) return undefined;
  return input.$case === 'docketJson' ? { kind: 'docket_json', json: input.value } : { kind: 'archive', bytes: input.value };
}

export function toProtoDocket(d: SealedDocket): registryV1.Docket {
  return { docketJson: d.docketJson, archive: d.archive };
}
