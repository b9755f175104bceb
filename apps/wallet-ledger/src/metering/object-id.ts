import { canonicalize, sha256Hex } from '@exchange/crypto';

// The registry's object id (apps/registry/src/domain/ids.ts), computed here so ingest can find a
// duplicate before calling the registry and check the id the registry answers with.

/** signer_agent_id of the objects the registry signs with the exchange key. */
export const EXCHANGE_SIGNER = 'exchange';

/** "sha256:" + hex sha256 of canonical({type, payload, signer_agent_id}). */
export function registryObjectId(type: string, payload: unknown, signerAgentId: string): string {
  return `sha256:${sha256Hex(new TextEncoder().encode(canonicalize({ type, payload, signer_agent_id: signerAgentId })))}`;
}
