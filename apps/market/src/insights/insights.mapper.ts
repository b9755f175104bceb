import { errors } from '@exchange/platform';
import { marketV1Insights } from '@exchange/proto';
import type { InsightWindowName } from './window';

// The insight window: proto enum ⇄ the service's window name.

const W = marketV1Insights.InsightWindow;

const WINDOW_NAMES: ReadonlyMap<marketV1Insights.InsightWindow, InsightWindowName> = new Map([
  [W.INSIGHT_WINDOW_UNSPECIFIED, 'all'],
  [W.INSIGHT_WINDOW_ALL, 'all'],
  [W.INSIGHT_WINDOW_1H, '1h'],
  [W.INSIGHT_WINDOW_1D, '1d'],
  [W.INSIGHT_WINDOW_7D, '7d'],
  [W.INSIGHT_WINDOW_30D, '30d'],
]);
export const WINDOW_ENUM: Readonly<Record<InsightWindowName, marketV1Insights.InsightWindow>> = {
  all: W.INSIGHT_WINDOW_ALL,
  '1h': W.INSIGHT_WINDOW_1H,
  '1d': W.INSIGHT_WINDOW_1D,
  '7d': W.INSIGHT_WINDOW_7D,
  '30d': W.INSIGHT_WINDOW_30D,
};

export function resolveWindow(value: marketV1Insights.InsightWindow, allowed: readonly InsightWindowName[]): InsightWindowName {
  const name = WINDOW_NAMES.get(value);
  if (name === undefined || !allowed.includes(name)) {
    throw errors.invalidArgument('validation_failed', `window must be one of ${allowed.join(', ')}`, { field: 'window' });
  }
  return name;
}
