import { runService } from '@exchange/service-host';
import { readWorkflowsConfig, startWorkflows } from './index';

// Process wiring only (libs/service-host): configuration, logger, process guard, start, signals.
void runService({ name: 'workflows', readConfig: () => readWorkflowsConfig(), start: startWorkflows });
