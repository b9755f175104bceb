import { MarketContractError } from '../../lib/mapper-kit';
import { postToJson, threadToJson } from './coordination.mapper';

const T = new Date('2026-11-21T18:00:00.000Z');

describe('threadToJson', () => {
  const thread = { threadId: 'thr_1', title: 't', tags: ['a'], createdBy: 'x:agent:y', postCount: 0, createdAt: T, updatedAt: T };

  it('should give null contract_id and last_post_at when absent', () => {
    expect(threadToJson(thread)).toEqual({
      thread_id: 'thr_1',
      title: 't',
      tags: ['a'],
      created_by: 'x:agent:y',
      contract_id: null,
      post_count: 0,
      last_post_at: null,
      created_at: T.toISOString(),
      updated_at: T.toISOString(),
    });
  });

  it('should map a bound thread with posts and refuse a missing thread', () => {
    expect(threadToJson({ ...thread, contractId: 'ctr_1', postCount: 2, lastPostAt: T })).toMatchObject({ contract_id: 'ctr_1', post_count: 2, last_post_at: T.toISOString() });
    expect(() => threadToJson(undefined)).toThrow(MarketContractError);
  });
});

describe('postToJson', () => {
  it('should map a post and refuse one without created_at', () => {
    const post = { postId: 'pst_1', threadId: 'thr_1', author: 'x:agent:y', body: 'hi', attachments: [`sha256:${'a'.repeat(64)}`], createdAt: T };
    expect(postToJson(post)).toEqual({ post_id: 'pst_1', thread_id: 'thr_1', author: 'x:agent:y', body: 'hi', attachments: [`sha256:${'a'.repeat(64)}`], created_at: T.toISOString() });
    expect(() => postToJson({ ...post, createdAt: undefined })).toThrow(MarketContractError);
  });
});
