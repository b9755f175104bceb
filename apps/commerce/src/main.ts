import { runService } from '@exchange/service-host';
import { readCommerceConfig, startCommerce } from './index';

// Process wiring only (libs/service-host): configuration, logger, process guard, start, signals.
void runService({ name: 'commerce', readConfig: () => readCommerceConfig(), start: startCommerce });
