import { errors } from '@exchange/platform';
import { marketV1Insights, marketV1InsightsWire, type DomainEnum } from '@exchange/proto';
import type { InsightWindowName } from './window';

// The insight window: proto enum ⇄ the service's window name, through the generated wire table
// (the service's window names are exactly its wire names).

export const insightWindow: DomainEnum<typeof marketV1InsightsWire.insightWindow, InsightWindowName> = marketV1InsightsWire.insightWindow;

export function resolveWindow(value: marketV1Insights.InsightWindow, allowed: readonly InsightWindowName[]): InsightWindowName {
  // An unset window means the whole history.
  const name = value === marketV1Insights.InsightWindow.INSIGHT_WINDOW_UNSPECIFIED ? 'all' : insightWindow.toWire(value);
  if (name === undefined || !allowed.includes(name)) {
    throw errors.invalidArgument('validation_failed', `window must be one of ${allowed.join(', ')}`, { field: 'window' });
  }
  return name;
}
