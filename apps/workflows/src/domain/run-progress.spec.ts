import { decideFailure, resultRefsOf, stageOutputs } from './run-progress';

describe('decideFailure', () => {
  const t = { stageName: 'crawl', shard: 2, failureReason: 'contract expired' };
  it('retries below the limit and fails the run at it, naming the shard', () => {
    expect(decideFailure({ ...t, attempt: 1 }, 3)).toEqual({ kind: 'retry', attempt: 2 });
    expect(decideFailure({ ...t, attempt: 3 }, 3)).toEqual({ kind: 'fail_run', reason: 'stage crawl shard 2 failed 3 times (contract expired)' });
    expect(decideFailure({ ...t, attempt: 1 }, 1)).toMatchObject({ kind: 'fail_run' });
  });
});

describe('stageOutputs', () => {
  it('is null until every shard settled, then the refs in shard order', () => {
    const settled = (shard: number, refs: string[]) => ({ shard, status: 'settled' as const, resultRefs: refs });
    expect(stageOutputs(2, [settled(1, ['b'])])).toBeNull();
    expect(stageOutputs(2, [settled(1, ['b1', 'b2']), { shard: 0, status: 'failed' as const, resultRefs: [] }])).toBeNull();
    expect(stageOutputs(2, [settled(1, ['b1', 'b2']), settled(0, ['a'])])).toEqual(['a', 'b1', 'b2']);
  });
});

describe('resultRefsOf', () => {
  it("takes the accepted result's artifacts, else result:<id>, else nothing", () => {
    expect(resultRefsOf([{ resultId: 'res_1', accepted: false, artifactRefs: ['x'] }, { resultId: 'res_2', accepted: true, artifactRefs: ['sha256:a'] }])).toEqual(['sha256:a']);
    expect(resultRefsOf([{ resultId: 'res_2', accepted: true, artifactRefs: [] }])).toEqual(['result:res_2']);
    expect(resultRefsOf([{ resultId: 'res_1', accepted: false, artifactRefs: ['x'] }])).toEqual([]);
  });
});
