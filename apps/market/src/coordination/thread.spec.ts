import { DomainError } from '@exchange/platform';
import { attachmentFilter, attachments, contractParties, mayUse, postBody, threadTitle } from './thread';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return `${(err as DomainError).code}:${String((err as DomainError).details?.['field'] ?? '')}`;
  }
  return 'no error';
};

const ref = (c: string) => `sha256:${c.repeat(64)}`;

describe('coordination rules', () => {
  it('should check titles and bodies by length', () => {
    expect(threadTitle('Plan')).toBe('Plan');
    expect(codeOf(() => threadTitle(''))).toBe('validation_failed:title');
    expect(codeOf(() => threadTitle('x'.repeat(201)))).toBe('validation_failed:title');
    expect(postBody('x'.repeat(20000))).toHaveLength(20000);
    expect(codeOf(() => postBody(''))).toBe('validation_failed:body');
    expect(codeOf(() => postBody('x'.repeat(20001)))).toBe('validation_failed:body');
  });

  it('should take up to 20 well-formed artifact refs, deduplicated', () => {
    expect(attachments([ref('a'), ref('b'), ref('a')])).toEqual([ref('a'), ref('b')]);
    expect(attachments(undefined)).toEqual([]);
    expect(attachments(Array.from({ length: 20 }, (_, i) => `sha256:${i.toString(16).padStart(64, '0')}`))).toHaveLength(20);
    expect(codeOf(() => attachments(Array.from({ length: 21 }, (_, i) => `sha256:${i.toString(16).padStart(64, '0')}`)))).toBe('validation_failed:attachments');
    expect(codeOf(() => attachments(['sha256:xyz']))).toBe('validation_failed:attachments');
    expect(codeOf(() => attachments([ref('A')]))).toBe('validation_failed:attachments');
    expect(attachmentFilter('')).toBeUndefined();
    expect(codeOf(() => attachmentFilter('nope'))).toBe('validation_failed:attachment');
  });

  it('should let the buyer, the awarded seller, the verifier and the operator use a bound thread', () => {
    const c = { buyerId: 'b', sellerId: 's', verifierId: 'v' };
    expect(contractParties(c)).toEqual(['b', 's', 'v']);
    expect(contractParties({ buyerId: 'b', sellerId: null, verifierId: null })).toEqual(['b']);
    const agent = (id: string) => ({ actor: `agent:${id}`, agentId: id, traceId: null });
    expect(mayUse(agent('s'), 's', c)).toBe(true);
    expect(mayUse(agent('v'), 'v', c)).toBe(true);
    expect(mayUse(agent('x'), 'x', c)).toBe(false);
    expect(mayUse({ actor: null, agentId: null, traceId: null }, null, c)).toBe(false);
    expect(mayUse({ actor: 'operator:ops', agentId: null, traceId: null }, null, c)).toBe(true);
  });
});
