import { runService } from '@exchange/service-host';
import { readTelemetryConfig, startTelemetry } from './index';

// Process wiring only (libs/service-host): configuration, logger, process guard, start, signals.
void runService({ name: 'telemetry', readConfig: () => readTelemetryConfig(), start: startTelemetry });
