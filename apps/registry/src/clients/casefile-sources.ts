import { status } from '@grpc/grpc-js';
import { errorInfoFromGrpc, errors, type CallOptions, type Logger } from '@exchange/platform';
import { marketV1, walletV1 } from '@exchange/proto';
import type { CasefileRecord, CasefileSources, ContractRecords, MarketContract, WalletReceipt } from '../casefiles/casefile-sources';
import { publicJson } from '../casefiles/views';
import type { ContractDirectory, WalletClient } from './market';

/** Registry reads market and wallet records for casefiles as an internal operator. */
const INTERNAL: CallOptions = { actor: 'operator:registry' };
const PAGE = 200;

const record = (kind: CasefileRecord['kind'], ref: string, json: unknown): CasefileRecord => ({ kind, ref, content: publicJson(json) });

function walletReceipt(r: walletV1.Receipt): WalletReceipt {
  return { receiptId: r.receiptId, payer: r.payer, payee: r.payee, record: record('receipt', r.receiptId, walletV1.Receipt.toJSON(r)) };
}

/** Market and wallet-ledger over gRPC, records in their public JSON shape. */
export class GrpcCasefileSources implements CasefileSources {
  constructor(
    private readonly contracts: ContractDirectory,
    private readonly wallet: WalletClient,
    private readonly logger: Logger,
  ) {}

  async contract(contractId: string): Promise<MarketContract> {
    const c = await this.contracts.contract(contractId);
    return {
      contractId: c.contractId,
      buyerId: c.buyerId,
      sellerId: c.sellerId ?? null,
      receiptId: c.receiptId || null,
      record: record('contract', c.contractId, marketV1.Contract.toJSON(c)),
    };
  }

  async contractRecords(contract: MarketContract): Promise<ContractRecords> {
    const { contractId } = contract;
    const market = this.contracts.client;
    const call = async <T>(fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn();
      } catch (err) {
        throw this.contracts.translate(err, contractId);
      }
    };
    const records: CasefileRecord[] = [];
    const offers = await call(() => pageAll((page) => market.listOffers({ contractId, page }, INTERNAL), (r) => r.offers));
    for (const o of offers) records.push(record('offer', o.offerId, marketV1.Offer.toJSON(o)));
    const results = await call(() => pageAll((page) => market.listResults({ contractId, page }, INTERNAL), (r) => r.results));
    for (const r of results) records.push(record('result', r.resultId, marketV1.Result.toJSON(r)));
    for (const v of await call(() => this.verificationReports(contractId))) {
      records.push(record('verification_report', v.reportId, marketV1.VerificationReport.toJSON(v)));
    }
    const disputes = await call(() => pageAll((page) => market.listDisputes({ contractId, page }, INTERNAL), (r) => r.disputes));
    for (const d of disputes) records.push(record('dispute', d.disputeId, marketV1.Dispute.toJSON(d)));
    for (const r of await this.receiptsOf(contract, disputes)) records.push(r.record);
    return { records, resultArtifactRefs: results.flatMap((r) => r.artifactRefs) };
  }

  contractReceipts(contract: MarketContract): Promise<WalletReceipt[]> {
    return this.receiptsOf(contract);
  }

  async receipt(receiptId: string): Promise<WalletReceipt | null> {
    const r = await this.fetchReceipt({ receiptId, contractId: '' });
    return r ? walletReceipt(r) : null;
  }

  /** Market ListVerificationReports when this market has it, else its latest report. */
  private async verificationReports(contractId: string): Promise<marketV1.VerificationReport[]> {
    const market = this.contracts.client as unknown as Record<string, unknown>;
    const list = market['listVerificationReports'] as
      | ((req: unknown, opts?: CallOptions) => Promise<{ reports?: marketV1.VerificationReport[]; page?: { nextCursor: string } }>)
      | undefined;
    if (typeof list === 'function') {
      try {
        return await pageAll((page) => list.call(market, { contractId, page }, INTERNAL), (r) => r.reports ?? []);
      } catch (err) {
        // A market older than this registry's proto: fall back to the latest report.
        if (errorInfoFromGrpc(err).grpcCode !== status.UNIMPLEMENTED) throw err;
      }
    }
    try {
      const { report } = await this.contracts.client.getLatestVerification({ contractId }, INTERNAL);
      return report ? [report] : [];
    } catch (err) {
      if (errorInfoFromGrpc(err).grpcCode === status.NOT_FOUND) return [];
      throw err;
    }
  }

  /** The contract's latest receipt and those its disputes name, oldest first. */
  private async receiptsOf(contract: MarketContract, disputes?: marketV1.Dispute[]): Promise<WalletReceipt[]> {
    const ds =
      disputes ??
      (await pageAll((page) => this.contracts.client.listDisputes({ contractId: contract.contractId, page }, INTERNAL), (r) => r.disputes));
    const ids = new Set<string>();
    if (contract.receiptId) ids.add(contract.receiptId);
    for (const d of ds) if (d.receiptId) ids.add(d.receiptId);
    const out = new Map<string, walletV1.Receipt>();
    const latest = await this.fetchReceipt({ receiptId: '', contractId: contract.contractId });
    if (latest) out.set(latest.receiptId, latest);
    for (const id of ids) {
      if (out.has(id)) continue;
      const r = await this.fetchReceipt({ receiptId: id, contractId: '' });
      if (r) out.set(r.receiptId, r);
    }
    return [...out.values()]
      .sort((a, b) => (a.settledAt?.getTime() ?? 0) - (b.settledAt?.getTime() ?? 0) || a.receiptId.localeCompare(b.receiptId))
      .map(walletReceipt);
  }

  private async fetchReceipt(req: walletV1.GetReceiptRequest): Promise<walletV1.Receipt | null> {
    try {
      const { receipt } = await this.wallet.getReceipt(req, INTERNAL);
      return receipt ?? null;
    } catch (err) {
      const info = errorInfoFromGrpc(err);
      if (info.grpcCode === status.NOT_FOUND || info.grpcCode === status.INVALID_ARGUMENT) return null;
      this.logger.warn({ err: info.message, code: info.code }, 'wallet receipt lookup failed');
      throw errors.unavailable('wallet_unavailable', 'wallet-ledger unavailable');
    }
  }
}

async function pageAll<R, T>(fetch: (page: { limit: number; cursor: string }) => Promise<R & { page?: { nextCursor: string } }>, items: (r: R) => T[]): Promise<T[]> {
  const out: T[] = [];
  let cursor = '';
  for (let i = 0; i < 100; i++) {
    const res = await fetch({ limit: PAGE, cursor });
    out.push(...items(res));
    cursor = res.page?.nextCursor ?? '';
    if (cursor === '') return out;
  }
  throw errors.invalidArgument('export_too_large', 'too many records to export');
}
