import { ContractsService } from '../contracts/contracts.service';
import { DisputesService } from '../disputes/disputes.service';
import { OffersService } from '../offers/offers.service';
import { ResultsService } from '../results/results.service';
import type { MarketContext } from '../saga/context';
import { VerificationService } from '../verification/verification.service';

/**
 * The contract lifecycle, one service per spec area (each in its own folder, sharing
 * service/contract-kit): validation and rules from src/domain, state in one transaction that
 * locks the contract row, events in the same transaction, wallet calls through the saga.
 * Listings and verifiers: ListingsService.
 */
export class MarketService {
  readonly contracts: ContractsService;
  readonly offers: OffersService;
  readonly results: ResultsService;
  readonly verification: VerificationService;
  readonly disputes: DisputesService;

  constructor(ctx: MarketContext) {
    this.contracts = new ContractsService(ctx);
    this.offers = new OffersService(ctx);
    this.results = new ResultsService(ctx);
    this.verification = new VerificationService(ctx);
    this.disputes = new DisputesService(ctx);
  }
}
