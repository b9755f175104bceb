import type { TaskRecord } from './model';
import { committedOf, mirrorContract, taskStatusOfContract, type ContractFacts } from './task-mirror';

type T = Pick<TaskRecord, 'status' | 'contractStatus' | 'sellerId' | 'price'>;
const task = (status: TaskRecord['status'], price: bigint | null = null): T => ({ status, contractStatus: null, sellerId: price ? 's' : null, price });
const facts = (verb: string, status: ContractFacts['status'], price: bigint | null = null): ContractFacts => ({ verb, contractId: 'ctr_1', status, sellerId: price ? 's' : null, price });

describe('mirrorContract', () => {
  it('follows a contract from posting to settled, moving the money once', () => {
    const posted = mirrorContract(task('posting'), facts('created', 'open'))!;
    expect(posted).toMatchObject({ status: 'open', event: 'task.posted', committedDelta: 0n, spentDelta: 0n });
    const awarded = mirrorContract(task('open'), facts('awarded', 'awarded', 7n))!;
    expect(awarded).toMatchObject({ status: 'awarded', event: 'task.awarded', committedDelta: 7n, spentDelta: 0n, price: 7n });
    const delivered = mirrorContract(task('awarded', 7n), facts('delivered', 'delivered', 7n))!;
    expect(delivered).toMatchObject({ status: 'delivered', committedDelta: 0n });
    const settled = mirrorContract(task('delivered', 7n), facts('settled', 'settled', 7n))!;
    expect(settled).toMatchObject({ status: 'settled', event: 'task.settled', committedDelta: -7n, spentDelta: 7n });
  });

  it('ignores repeats and events older than the task', () => {
    expect(mirrorContract(task('awarded', 7n), facts('awarded', 'awarded', 7n))).toBeNull();
    expect(mirrorContract(task('delivered', 7n), facts('awarded', 'awarded', 7n))).toBeNull();
    expect(mirrorContract(task('settled', 7n), facts('awarded', 'awarded', 7n))).toBeNull();
    expect(mirrorContract(task('failed'), facts('settled', 'settled', 7n))).toBeNull();
  });

  it('accepts the one backward move: a failed verification reopens a delivered contract', () => {
    expect(mirrorContract(task('delivered', 7n), facts('reopened', 'awarded', 7n))).toMatchObject({ status: 'awarded', event: 'task.awarded', committedDelta: 0n });
  });

  it('records delivered → accepted as a contract status change without a task event', () => {
    expect(mirrorContract({ ...task('delivered', 7n), contractStatus: 'delivered' }, facts('accepted', 'accepted', 7n))).toMatchObject({ status: 'delivered', contractStatus: 'accepted', event: null });
  });

  it('fails the task on expiry, cancel, refund and split, releasing what it held', () => {
    expect(mirrorContract(task('open'), facts('expired', 'expired'))).toMatchObject({ status: 'failed', event: 'task.failed', committedDelta: 0n, failureReason: 'contract expired' });
    expect(mirrorContract(task('disputed', 5n), facts('refunded', 'refunded', 5n))).toMatchObject({ status: 'failed', committedDelta: -5n, spentDelta: 0n });
    expect(mirrorContract(task('disputed', 5n), facts('split', 'split', 5n))).toMatchObject({ status: 'failed', committedDelta: -5n });
  });

  it('settles a task whose award it never saw without touching committed', () => {
    expect(mirrorContract(task('open'), facts('settled', 'settled', 4n))).toMatchObject({ status: 'settled', committedDelta: 0n, spentDelta: 4n });
  });

  it('maps every contract status; corrected is not followed', () => {
    expect(taskStatusOfContract('accepted')).toBe('delivered');
    expect(taskStatusOfContract('corrected')).toBeNull();
    expect(committedOf('open', 3n)).toBe(0n);
    expect(committedOf('disputed', 3n)).toBe(3n);
  });
});
