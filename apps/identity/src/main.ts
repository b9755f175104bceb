import { runService } from '@exchange/service-host';
import { readIdentityConfig, startIdentity } from './index';

// Process wiring only (libs/service-host): configuration, logger, process guard, start, signals.
void runService({ name: 'identity', readConfig: () => readIdentityConfig(), start: startIdentity });
