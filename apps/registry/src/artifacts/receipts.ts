/** What an agent signs to acknowledge an artifact: canonical({artifact_ref, agent_id}). */
export function ackPayload(artifactRef: string, agentId: string): { artifact_ref: string; agent_id: string } {
  return { artifact_ref: artifactRef, agent_id: agentId };
}

export interface DeliveryReceiptFields {
  delivery_receipt_id: string;
  artifact_ref: string;
  agent_id: string;
  size_bytes: number;
  /** RFC 3339 (ISO, milliseconds, Z). */
  delivered_at: string;
}

/** What the exchange signs for a delivery: canonical of the fields other than the signature. */
export function deliveryReceiptPayload(r: DeliveryReceiptFields): DeliveryReceiptFields {
  return {
    delivery_receipt_id: r.delivery_receipt_id,
    artifact_ref: r.artifact_ref,
    agent_id: r.agent_id,
    size_bytes: r.size_bytes,
    delivered_at: r.delivered_at,
  };
}
