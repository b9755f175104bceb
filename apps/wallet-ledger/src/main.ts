import { runService } from '@exchange/service-host';
import { readWalletLedgerConfig, startWalletLedger } from './index';

// Process wiring only (libs/service-host): configuration, logger, process guard, start, signals.
void runService({ name: 'wallet-ledger', readConfig: () => readWalletLedgerConfig(), start: startWalletLedger });
