// The DESIGN §5 envelope as telemetry reads it (structurally the @exchange/events EventEnvelope,
// declared here so the domain does not depend on the bus library).
export interface StoreEvent {
  id: string;
  type: string;
  source: string;
  subject_id: string;
  occurred_at: string;
  actor: string | null;
  data: unknown;
  trace_id: string | null;
}

/** `exchange.market.contract.settled` → { service: 'market', entity: 'contract', verb: 'settled' }. */
export function typeParts(type: string): { service: string; entity: string; verb: string } {
  const parts = type.split('.');
  return { service: parts[1] ?? '', entity: parts[2] ?? '', verb: parts.slice(3).join('.') };
}
