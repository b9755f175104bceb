// Ports of metering, billing and the gateway proxy onto other services (adapters in src/clients/).

export type ObjectVisibility = 'public' | 'parties' | 'operator';

export interface StoredObject {
  /** `sha256:<hex>` of canonical({type, payload, signer_agent_id}). */
  objectId: string;
  /** The payload as the registry stored it (canonical JSON). */
  payloadJson: string;
  signerAgentId: string;
  /** Base64 ed25519 over payloadJson, by the signer's key (the exchange key for "exchange"). */
  signature: string;
  signerPublicKey: string;
  /** False when the same object was stored before. */
  created: boolean;
}

export interface Trace {
  requestId?: string;
  traceId?: string;
}

/** The registry's signed objects. Unreachable → 503 registry_unavailable; its refusals pass through with their code. */
export interface SignedObjectStore {
  /** An agent-signed object: the registry verifies the signature with the signer's keys (400 object_signature_invalid). */
  storeAgentObject(
    input: { type: string; payloadJson: string; signerAgentId: string; signature: string; visibility: ObjectVisibility; parties: string[]; tags: string[] },
    trace: Trace,
  ): Promise<StoredObject>;
  /** An object the registry signs with the exchange key (signer "exchange"). */
  storeExchangeObject(
    input: { type: string; payloadJson: string; visibility: ObjectVisibility; parties: string[]; tags: string[] },
    trace: Trace,
  ): Promise<StoredObject>;
}
