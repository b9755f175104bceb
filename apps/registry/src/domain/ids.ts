import { canonicalize, sha256Hex } from '@exchange/crypto';

const REF = /^sha256:[0-9a-f]{64}$/;

/** "sha256:" + hex sha256 of canonical({type, payload, signer_agent_id}). */
export function objectIdOf(type: string, payload: unknown, signerAgentId: string): string {
  return `sha256:${sha256Hex(new TextEncoder().encode(canonicalize({ type, payload, signer_agent_id: signerAgentId })))}`;
}

export function artifactRefOf(sha256HexDigest: string): string {
  return `sha256:${sha256HexDigest}`;
}

export function isContentRef(ref: string): boolean {
  return REF.test(ref);
}

/** The hex digest of a "sha256:<hex>" ref. */
export function hexOfRef(ref: string): string {
  return ref.slice('sha256:'.length);
}
