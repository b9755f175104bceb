import type { Server } from '@grpc/grpc-js';
import type { Logger } from '@exchange/platform';
import { mergeAreaHandlers, serviceArea } from '@exchange/service-host';
import { walletV1 } from '@exchange/proto';
import { balancesHandlers } from '../balances/balances.handlers';
import { billingHandlers } from '../billing/billing.handlers';
import { createBillingService, type BillingService } from '../billing/billing.service';
import { balancesCodecs } from '../balances/balances.mapper';
import { BalancesRepo } from '../balances/balances.repo';
import { BalancesService } from '../balances/balances.service';
import { PgLedgerWriter } from '../data/ledger.writer';
import { depositsHandlers } from '../deposits/deposits.handlers';
import { depositsCodecs } from '../deposits/deposits.mapper';
import { DepositsRepo } from '../deposits/deposits.repo';
import { DepositsService } from '../deposits/deposits.service';
import { sweepHolds } from '../holds/hold-sweeper.worker';
import { holdsHandlers } from '../holds/holds.handlers';
import { holdsCodecs } from '../holds/holds.mapper';
import { HoldsRepo } from '../holds/holds.repo';
import { HoldsService } from '../holds/holds.service';
import { ledgerHandlers } from '../ledger/ledger.handlers';
import { meteringHandlers } from '../metering/metering.handlers';
import { createMeteringService, type MeteringService } from '../metering/metering.service';
import { LedgerRepo } from '../ledger/ledger.repo';
import { LedgerService } from '../ledger/ledger.service';
import { operationsHandlers } from '../operations/operations.handlers';
import { OperationsRepo } from '../operations/operations.repo';
import { OperationsService } from '../operations/operations.service';
import { processPayouts } from '../payouts/payout-processor.worker';
import { payoutsHandlers } from '../payouts/payouts.handlers';
import { payoutsCodecs } from '../payouts/payouts.mapper';
import { PayoutsRepo } from '../payouts/payouts.repo';
import { PayoutsService } from '../payouts/payouts.service';
import { proxyHandlers } from '../proxy/proxy.handlers';
import { createProxyService, type ProxyService } from '../proxy/proxy.service';
import { purchaseRefundsHandlers } from '../purchase-refunds/purchase-refunds.handlers';
import { purchaseRefundsCodecs } from '../purchase-refunds/purchase-refunds.mapper';
import { PurchaseRefundsService } from '../purchase-refunds/purchase-refunds.service';
import { receiptsHandlers } from '../receipts/receipts.handlers';
import { ReceiptsRepo } from '../receipts/receipts.repo';
import { ReceiptsService } from '../receipts/receipts.service';
import { settlementHandlers } from '../settlement/settlement.handlers';
import { settlementCodecs } from '../settlement/settlement.mapper';
import { SettlementService } from '../settlement/settlement.service';
import type { WalletAreasDeps } from '../service/area-wiring';

export type { WalletAreasDeps } from '../service/area-wiring';

export const WALLET_LEDGER_SERVICE_NAME = 'exchange.wallet.v1.WalletLedgerService';

/** One service per area (src/<area>/). */
export interface WalletServices {
  balances: BalancesService;
  deposits: DepositsService;
  holds: HoldsService;
  payouts: PayoutsService;
  settlement: SettlementService;
  purchaseRefunds: PurchaseRefundsService;
  receipts: ReceiptsService;
  operations: OperationsService;
  ledger: LedgerService;
  metering: MeteringService;
  billing: BillingService;
  proxy: ProxyService;
}

// Every area of the wallet, one entry each; their handlers together make WalletLedgerService.
// Adding an area: its slice under src/<area>/ and one entry here.
export const AREAS = [
  serviceArea('balances', (s: WalletServices, logger: Logger) => balancesHandlers(s.balances, logger)),
  serviceArea('deposits', (s: WalletServices, logger: Logger) => depositsHandlers(s.deposits, logger)),
  serviceArea('holds', (s: WalletServices, logger: Logger) => holdsHandlers(s.holds, logger)),
  serviceArea('payouts', (s: WalletServices, logger: Logger) => payoutsHandlers(s.payouts, logger)),
  serviceArea('settlement', (s: WalletServices, logger: Logger) => settlementHandlers(s.settlement, logger)),
  serviceArea('purchase-refunds', (s: WalletServices, logger: Logger) => purchaseRefundsHandlers(s.purchaseRefunds, logger)),
  serviceArea('receipts', (s: WalletServices, logger: Logger) => receiptsHandlers(s.receipts, logger)),
  serviceArea('operations', (s: WalletServices, logger: Logger) => operationsHandlers(s.operations, logger)),
  serviceArea('ledger', (s: WalletServices, logger: Logger) => ledgerHandlers(s.ledger, logger)),
  serviceArea('metering', (s: WalletServices, logger: Logger) => meteringHandlers(s.metering, logger)),
  serviceArea('billing', (s: WalletServices, logger: Logger) => billingHandlers(s.billing, logger)),
  serviceArea('proxy', (s: WalletServices, logger: Logger) => proxyHandlers(s.proxy, logger)),
] as const;

/** WalletLedgerService's handlers: every area's, merged (typed as the server: a missing RPC does not compile). */
export function walletHandlers(s: WalletServices, logger: Logger): walletV1.WalletLedgerServiceServer {
  return mergeAreaHandlers(AREAS, s, logger);
}


/**
 * Builds each area's repository and service, handing every service only what it uses, and the
 * workers (one round each: the caller schedules them).
 */
export function createWalletAreas(d: WalletAreasDeps): {
  services: WalletServices;
  workers: { sweepHolds(): Promise<number>; processPayouts(): Promise<number> };
} {
  const writer = new PgLedgerWriter(d.pool, d.logger, d.afterCommit, d.groupCommit);
  const balancesRepo = new BalancesRepo(d.pool);
  const holdsRepo = new HoldsRepo(d.pool);
  const receiptsRepo = new ReceiptsRepo(d.pool);
  const operationsRepo = new OperationsRepo(d.pool);
  const mutation = { writer, agents: d.agents, clock: d.clock };
  const holds = new HoldsService({ ...mutation, repo: holdsRepo, codecs: holdsCodecs });
  const services: WalletServices = {
    balances: new BalancesService({ ...mutation, repo: balancesRepo, codecs: balancesCodecs }),
    deposits: new DepositsService({ ...mutation, repo: new DepositsRepo(d.pool), environment: d.environment, codecs: depositsCodecs }),
    holds,
    payouts: new PayoutsService({ ...mutation, repo: new PayoutsRepo(d.pool), codecs: payoutsCodecs }, d.institutionalLimit),
    settlement: new SettlementService(
      { ...mutation, holds: holdsRepo, receipts: receiptsRepo, balances: balancesRepo, codecs: settlementCodecs },
      holds,
      d.signer,
    ),
    purchaseRefunds: new PurchaseRefundsService(
      { ...mutation, holds: holdsRepo, receipts: receiptsRepo, balances: balancesRepo, codecs: purchaseRefundsCodecs },
      d.signer,
    ),
    receipts: new ReceiptsService({ repo: receiptsRepo }),
    operations: new OperationsService({ repo: operationsRepo, clock: d.clock, afterCommit: d.afterCommit }),
    ledger: new LedgerService({ repo: new LedgerRepo(d.pool), clock: d.clock }),
    metering: createMeteringService(d),
    billing: createBillingService(d),
    proxy: createProxyService(d),
  };
  const workerDeps = { pool: d.pool, writer, controls: operationsRepo, clock: d.clock, afterCommit: d.afterCommit };
  return {
    services,
    workers: {
      sweepHolds: () => sweepHolds(workerDeps),
      processPayouts: () => processPayouts({ ...workerDeps, agents: d.agents }),
    },
  };
}

/** Adds WalletLedgerService to the server libs/service-host starts (health is already there). */
export function registerWalletLedger(server: Server, services: WalletServices, logger: Logger): void {
  server.addService(walletV1.WalletLedgerServiceService, walletHandlers(services, logger));
}
