import { encodeCursor } from '@exchange/platform';
import { evidenceChain } from '../../test/support/evidence-fixtures';
import { artifactCursor, artifactPage, seqAfterCursor } from './artifact-page';

const chain = evidenceChain('cs_1', 5);
const head = { seq: 5, hash: chain[4].hash };

describe('artifact pages', () => {
  it('should walk the chain in seq order with opaque cursors', () => {
    const first = artifactPage(chain, head, { limit: 2 });
    expect(first.items.map((i) => i.seq)).toEqual([1, 2]);
    expect(first.chainValid).toBe(true);
    const second = artifactPage(chain, head, { limit: 2, cursor: first.nextCursor });
    expect(second.items.map((i) => i.seq)).toEqual([3, 4]);
    const last = artifactPage(chain, head, { limit: 2, cursor: second.nextCursor });
    expect(last.items.map((i) => i.seq)).toEqual([5]);
    expect(last.nextCursor).toBe('');
  });

  it('should give everything on one page under the default limit', () => {
    expect(artifactPage(chain, head, undefined)).toMatchObject({ nextCursor: '', chainValid: true });
    expect(artifactPage(chain, head, { limit: 5 }).nextCursor).toBe('');
  });

  it('should refuse limits outside 1..200 and foreign cursors', () => {
    expect(() => artifactPage(chain, head, { limit: 201 })).toThrow(expect.objectContaining({ code: 'invalid_limit' }));
    expect(() => artifactPage(chain, head, { limit: -1 })).toThrow(expect.objectContaining({ code: 'invalid_limit' }));
    expect(() => artifactPage(chain, head, { cursor: 'not a cursor' })).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    const foreign = encodeCursor({ createdAt: new Date(), id: 'ctr_1' });
    expect(() => seqAfterCursor(foreign)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    expect(seqAfterCursor(artifactCursor(chain[2]))).toBe(3);
  });

  it('should say the chain is invalid when an item was changed, one is missing or the head differs', () => {
    const changed = chain.map((item, i) => (i === 2 ? { ...item, content: { ...item.content, status: 500 } } : item));
    expect(artifactPage(changed, head, { limit: 1 }).chainValid).toBe(false);
    expect(artifactPage(chain.slice(0, 4), head, {}).chainValid).toBe(false);
    expect(artifactPage(chain, { seq: 5, hash: 'b'.repeat(64) }, {}).chainValid).toBe(false);
    expect(artifactPage([], { seq: 0, hash: '0'.repeat(64) }, {})).toMatchObject({ items: [], chainValid: true });
  });
});
