import { runService } from '@exchange/service-host';
import { readMarketConfig, startMarket } from './index';

// Process wiring only (libs/service-host): configuration, logger, process guard, start, signals.
void runService({ name: 'market', readConfig: () => readMarketConfig(), start: startMarket });
