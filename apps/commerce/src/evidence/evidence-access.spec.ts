import { assertCanRead, chainHead, sessionIdOf, type SessionHead } from './evidence-access';
import { GENESIS_HASH } from './evidence-chain';

const session: SessionHead = {
  commerceSessionId: 'cs_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  buyerAgentId: 'agt_buyer',
  mandateId: 'mdt_1',
  merchantDomain: 'shop.example',
  evidenceSeq: 2,
  evidenceHead: 'a'.repeat(64),
};

describe('evidence access', () => {
  it('should let the buyer and the operator read', () => {
    expect(() => assertCanRead({ agentId: 'agt_buyer', operator: false }, session)).not.toThrow();
    expect(() => assertCanRead({ agentId: '', operator: true }, session)).not.toThrow();
  });

  it('should refuse anyone else with 403 not_session_buyer', () => {
    for (const actor of [{ agentId: 'agt_other', operator: false }, { agentId: '', operator: false }, undefined]) {
      expect(() => assertCanRead(actor, session)).toThrow(expect.objectContaining({ code: 'not_session_buyer' }));
    }
  });

  it('should require a session id and tell well-formed ones apart', () => {
    expect(() => sessionIdOf('')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => sessionIdOf(undefined)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(sessionIdOf(session.commerceSessionId).wellFormed).toBe(true);
    expect(sessionIdOf('cs_x\u0000').wellFormed).toBe(false);
    expect(sessionIdOf("cs_1' OR 1=1").wellFormed).toBe(false);
  });

  it('should take 64 zeros as the head of an empty chain', () => {
    expect(chainHead({ ...session, evidenceSeq: 0, evidenceHead: '' })).toBe(GENESIS_HASH);
    expect(chainHead(session)).toBe('a'.repeat(64));
  });
});
