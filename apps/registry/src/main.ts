import { runService } from '@exchange/service-host';
import { readRegistryConfig, startRegistry } from './index';

// Process wiring only (libs/service-host): configuration, logger, process guard, start, signals.
void runService({ name: 'registry', readConfig: () => readRegistryConfig(), start: startRegistry });
