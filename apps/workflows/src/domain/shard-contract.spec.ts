import { parseShardLabels, postingKey, shardLabels } from './shard-contract';

describe('shard labels and keys', () => {
  it('round-trips the labels and refuses contracts that are not ours', () => {
    const l = { workflowRunId: 'run_1', stage: 'crawl', shard: 3, attempt: 2 };
    expect(parseShardLabels(shardLabels(l))).toEqual(l);
    expect(parseShardLabels({})).toBeNull();
    expect(parseShardLabels(undefined)).toBeNull();
    expect(parseShardLabels({ ...shardLabels(l), shard: '-1' })).toBeNull();
    expect(parseShardLabels({ ...shardLabels(l), attempt: '01' })).toBeNull();
  });

  it('derives one posting key per attempt', () => {
    expect(postingKey({ workflowRunId: 'run_1', stageIndex: 0, shard: 2, attempt: 1 })).toBe('workflow:run_1:0:2:1');
  });
});
