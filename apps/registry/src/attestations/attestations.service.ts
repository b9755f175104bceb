import { errors } from '@exchange/platform';
import { viewerOf, type Caller } from '../domain/caller';
import type { Page, PageRequest, RegistryObject } from '../domain/records';
import { ATTESTATION_TYPE } from '../domain/validation';
import { objectsRepo, type ObjectFilter } from '../objects/objects.repo';
import { pageOfObjects } from '../objects/objects.service';
import type { RegistryContext } from '../service/context';

// Attestations are objects of type "attestation" (stored through the objects area); this area
// queries them by subject, signer and time. Their docket export is a casefile (CasefilesService).

export interface AttestationQuery {
  subjectRef?: string;
  signerAgentId?: string;
  from?: Date;
  to?: Date;
}

/** What the attestation queries use of the start-up context. */
export type AttestationsDeps = Pick<RegistryContext, 'pool'>;

export class AttestationsService {
  constructor(private readonly ctx: AttestationsDeps) {}

  query(query: AttestationQuery, page: PageRequest | undefined, caller: Caller): Promise<Page<RegistryObject>> {
    return pageOfObjects(this.ctx.pool, attestationFilter(query), page, caller);
  }

  /** Every attestation matching the filters that the caller may read, oldest first (≤ `max`). */
  async all(req: AttestationQuery, caller: Caller, max: number): Promise<RegistryObject[]> {
    const rows = await objectsRepo.list(this.ctx.pool, attestationFilter(req), viewerOf(caller), max + 1);
    if (rows.length > max) throw errors.invalidArgument('export_too_large', `more than ${max} attestations match; narrow the filters`, { max });
    return rows.reverse();
  }
}

function attestationFilter(req: AttestationQuery): ObjectFilter {
  const filter: ObjectFilter = { type: ATTESTATION_TYPE };
  if (req.subjectRef) filter.subjectRef = req.subjectRef;
  if (req.signerAgentId) filter.signerAgentId = req.signerAgentId;
  if (req.from) filter.from = req.from;
  if (req.to) filter.to = req.to;
  if (filter.from && filter.to && filter.from >= filter.to) throw errors.invalidArgument('validation_failed', 'from must be before to', { field: 'from' });
  return filter;
}
