import { errors } from '@exchange/platform';

// The fixed texts come from the spec (§7) and DESIGN §3; clients match on them.
export const agentIdExists = () => errors.alreadyExists('agent_id_exists', 'agent_id already exists');
export const proofNonceUsed = () => errors.alreadyExists('proof_nonce_used', 'proof_nonce has already been used');
/** A public key belongs to at most one agent (DESIGN §3); `pointer` names the key when known. */
export const pubkeyInUse = (pointer?: string) =>
  errors.alreadyExists('pubkey_in_use', 'a public key of the registration already belongs to another agent', pointer ? { pointer } : undefined);
export const agentNotFound = (agentId: string) => errors.notFound('agent', agentId);
