import type { AttestationQuery } from './attestations.service';

// proto → use-case input; attestations are objects on the wire (objects.mapper's toProtoObject).
export { toProtoObject } from '../objects/objects.mapper';

export function attestationQuery(req: { subjectRef?: string; signerAgentId?: string; from?: Date; to?: Date }): AttestationQuery {
  const q: AttestationQuery = {};
  if (req.subjectRef !== undefined) q.subjectRef = req.subjectRef;
  if (req.signerAgentId !== undefined) q.signerAgentId = req.signerAgentId;
  if (req.from !== undefined) q.from = req.from;
  if (req.to !== undefined) q.to = req.to;
  return q;
}
