import type { TaskEventType } from '../task-events/task-event';
import type { ContractStatus, TaskRecord, TaskStatus } from './model';

// How a task mirrors its market contract (pure). The consumer applies each contract event through
// `mirrorContract`: a change moves the task forward only; a repeat or an event older than what the
// task already shows changes nothing (JetStream redelivers, and may deliver out of order).

/** What a market contract event says about the contract. */
type TaskChangeType = Extract<TaskEventType, `task.${string}`>;

export interface ContractFacts {
  /** The event's verb: exchange.market.contract.<verb>. */
  verb: string;
  contractId: string;
  status: ContractStatus;
  sellerId: string | null;
  price: bigint | null;
}

export interface MirrorChange {
  status: TaskStatus;
  contractStatus: ContractStatus;
  sellerId: string | null;
  price: bigint | null;
  /** Added to the run's committed (escrow held by awarded, unsettled shards). */
  committedDelta: bigint;
  /** Added to the run's spent (prices of settled shards). */
  spentDelta: bigint;
  /** The task event to record; null = only the contract status moved (delivered → accepted). */
  event: TaskChangeType | null;
  failureReason: string | null;
}

const RANK: Record<TaskStatus, number> = { posting: 0, open: 1, awarded: 2, delivered: 3, disputed: 4, settled: 5, failed: 5, cancelled: 5 };

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['settled', 'failed', 'cancelled'];
/** Tasks whose contract may still move in the market. */
export const ACTIVE_TASK_STATUSES: readonly TaskStatus[] = ['posting', 'open', 'awarded', 'delivered', 'disputed'];

export function isTerminalTask(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}

/** The task status a contract status means; null for statuses a task does not follow (corrected). */
export function taskStatusOfContract(status: ContractStatus): TaskStatus | null {
  switch (status) {
    case 'open':
      return 'open';
    case 'awarded':
      return 'awarded';
    case 'delivered':
    case 'accepted':
      return 'delivered';
    case 'disputed':
      return 'disputed';
    case 'settled':
      return 'settled';
    case 'expired':
    case 'cancelled':
    case 'refunded':
    case 'split':
      return 'failed';
    case 'corrected':
      return null;
  }
}

const EVENT_OF: Partial<Record<TaskStatus, TaskChangeType>> = {
  open: 'task.posted',
  awarded: 'task.awarded',
  delivered: 'task.delivered',
  disputed: 'task.disputed',
  settled: 'task.settled',
  failed: 'task.failed',
};

/** The escrow an awarded, unsettled task holds. */
export function committedOf(status: TaskStatus, price: bigint | null): bigint {
  return status === 'awarded' || status === 'delivered' || status === 'disputed' ? (price ?? 0n) : 0n;
}

type MirroredTask = Pick<TaskRecord, 'status' | 'contractStatus' | 'sellerId' | 'price'>;

/** The task's change for a contract event, or null when the event is a repeat or goes backwards. */
export function mirrorContract(task: MirroredTask, c: ContractFacts): MirrorChange | null {
  if (isTerminalTask(task.status)) return null;
  const next = taskStatusOfContract(c.status);
  if (next === null) return null;
  // A failed verification sends a delivered contract back to awarded: the one move backwards.
  const reopened = c.verb === 'reopened' && task.status === 'delivered' && next === 'awarded';
  const price = c.price ?? task.price;
  const sellerId = c.sellerId ?? task.sellerId;
  if (next === task.status && !reopened) {
    if (task.contractStatus === 'delivered' && c.status === 'accepted') {
      return { status: next, contractStatus: c.status, sellerId, price, committedDelta: 0n, spentDelta: 0n, event: null, failureReason: null };
    }
    return null;
  }
  if (RANK[next] <= RANK[task.status] && !reopened) return null;
  return {
    status: next,
    contractStatus: c.status,
    sellerId,
    price,
    committedDelta: committedOf(next, price) - committedOf(task.status, task.price),
    spentDelta: next === 'settled' ? (price ?? 0n) : 0n,
    event: reopened ? 'task.awarded' : (EVENT_OF[next] ?? null),
    failureReason: next === 'failed' ? `contract ${c.status}` : null,
  };
}
