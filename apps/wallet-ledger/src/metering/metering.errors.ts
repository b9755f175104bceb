import { errors } from '@exchange/platform';
import { MAX_FUTURE_MS } from '../domain/billing-period';

// The metering refusals, with the codes of libs/platform/src/error-codes.ts.

const clip = (v: string) => v.slice(0, 128);

export const meteringErrors = {
  inFuture: (occurredAt: Date) =>
    errors.invalidArgument('meter_event_in_future', `occurred_at is more than ${MAX_FUTURE_MS / 60_000} minutes ahead of the exchange clock`, {
      occurred_at: occurredAt.toISOString(),
    }),
  periodClosed: (period: string, why: 'too_old' | 'receipt_emitted') =>
    errors.failedPrecondition(
      'billing_period_closed',
      why === 'too_old' ? `period ${period} is older than the previous month` : `the period receipt of ${period} was emitted`,
      { period, reason: why },
    ),
  epochNotFound: (epoch: string) => errors.notFound('epoch', clip(epoch)),
  epochMismatch: (epoch: string, meter: string, why: 'meter_not_priced' | 'not_covered') =>
    errors.failedPrecondition(
      'epoch_mismatch',
      why === 'meter_not_priced' ? `epoch ${epoch} does not price meter ${meter}` : `epoch ${epoch} does not cover occurred_at`,
      { epoch, meter, reason: why },
    ),
  epochExists: (epoch: string, objectId: string) =>
    errors.alreadyExists('epoch_exists', `an epoch table named ${epoch} exists with other content`, { epoch, object_id: objectId }),
  epochOverlap: (meter: string, otherEpoch: string) =>
    errors.failedPrecondition('epoch_overlap', `epoch ${otherEpoch} prices meter ${meter} for an overlapping range`, { meter, other_epoch: otherEpoch }),
  meterEventNotFound: (objectId: string) => errors.notFound('meter_event', clip(objectId)),
  epochTableNotFound: (objectId: string) => errors.notFound('meter_epoch_table', clip(objectId)),
};
