import { errors, resolveLimit, toPage } from '@exchange/platform';
import type { TelemetryRuntime } from '../service/runtime';
import { checkId } from '../domain/event-filter';
import { jsonlChunks } from '../domain/jsonl-export';
import { requireOperator, type Caller } from '../domain/operator-only';
import { eventCursorKey, eventKeyOf, type OperatorEvent } from '../domain/stored-event';
import type { EventPage, PageInput } from '../feeds/feeds.service';
import { TimelinesRepo } from './timelines.repo';

/** A contract's timeline: every event filed under it, in the order they occurred (operator only). */
export class TimelinesService {
  private readonly repo: TimelinesRepo;

  constructor(deps: Pick<TelemetryRuntime, 'pool'>) {
    this.repo = new TimelinesRepo({ pool: deps.pool });
  }

  async page(caller: Caller | undefined, contractId: string, page: PageInput): Promise<EventPage<OperatorEvent>> {
    requireOperator(caller, 'contract timelines');
    checkId('contract_id', contractId);
    const limit = resolveLimit(page.limit);
    const rows = await this.repo.page(contractId, eventKeyOf(page.cursor), limit + 1);
    if (rows.length === 0) await this.mustExist(contractId);
    const { data, nextCursor } = toPage(rows, limit, eventCursorKey);
    return { items: data, nextCursor };
  }

  /** Refusals (caller, id, unknown contract) come before the first byte; then the whole timeline as JSONL chunks. */
  async openExport(caller: Caller | undefined, contractId: string): Promise<AsyncGenerator<Buffer>> {
    requireOperator(caller, 'contract timelines');
    checkId('contract_id', contractId);
    await this.mustExist(contractId);
    return jsonlChunks((after, limit) => this.repo.page(contractId, after, limit));
  }

  private async mustExist(contractId: string): Promise<void> {
    // Telemetry knows a contract by its events: none recorded → unknown here.
    if (!(await this.repo.anyEvent(contractId))) throw errors.notFound('contract', contractId);
  }
}
