import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { telemetryV1Events, telemetryV1Wire, type DomainEnum, type telemetryV1 } from '@exchange/proto';
import type pg from 'pg';
import type { SignalName } from '../domain/boost';
import type { MatchingSignalRecord } from './signal-rules';

// A matching signal → proto (RPC answer and event payload) and its outbox writer, called in the
// insert's transaction. The kind goes through the generated wire table, typed with the domain's
// names (which must be exactly its wire names).

export const SIGNAL_RECORDED = 'exchange.telemetry.matching_signal.recorded';

export const signalType: DomainEnum<typeof telemetryV1Wire.signalType, SignalName> = telemetryV1Wire.signalType;

export function toProtoSignal(s: MatchingSignalRecord): telemetryV1.MatchingSignal {
  return {
    signalId: s.signalId,
    signal: signalType.toProto(s.signal),
    recordedBy: s.recordedBy,
    contractId: s.contractId,
    sellerId: s.sellerId,
    listingId: s.listingId ?? undefined,
    requestId: s.requestId ?? undefined,
    occurredAt: s.occurredAt,
    recordedAt: s.recordedAt,
  };
}

/** exchange.telemetry.matching_signal.recorded, subject the signal, data {signal}. */
export async function enqueueSignalRecorded(client: pg.ClientBase, s: MatchingSignalRecord): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({
      type: SIGNAL_RECORDED,
      source: 'telemetry',
      subjectId: s.signalId,
      actor: s.recordedBy === '' ? 'operator' : `agent:${s.recordedBy}`,
      data: telemetryV1Events.MatchingSignalRecorded.toJSON({ signal: toProtoSignal(s) }),
    }),
  );
}
