import { status } from '@grpc/grpc-js';
import { DomainError } from '@exchange/platform';
import {
  actingAgentOf,
  aliasTokenPayload,
  assertMayMintAlias,
  assertMayReveal,
  isAlias,
  newAlias,
  revealPayload,
  validateMintAlias,
  validateReveal,
} from './party-alias';

function codeOf(fn: () => unknown): { grpc: number; code: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { grpc: err.grpcCode, code: err.code };
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('party aliases', () => {
  it('should draw anon: + 12 lowercase base32 characters from the random bytes', () => {
    expect(newAlias(() => new Uint8Array(12).fill(0))).toBe('anon:aaaaaaaaaaaa');
    expect(newAlias(() => new Uint8Array(12).fill(31))).toBe('anon:777777777777');
    expect(newAlias(() => Uint8Array.from([0, 1, 25, 26, 27, 31, 32, 33, 57, 58, 255, 224]))).toBe('anon:abz237abz27a');
    for (let i = 0; i < 50; i++) expect(newAlias()).toMatch(/^anon:[a-z2-7]{12}$/);
    expect(new Set(Array.from({ length: 200 }, () => newAlias())).size).toBe(200);
  });

  it('should recognise only well-formed aliases', () => {
    expect(isAlias('anon:abcdefgh2345')).toBe(true);
    expect(isAlias('anon:abcdefgh234')).toBe(false);
    expect(isAlias('anon:ABCDEFGH2345')).toBe(false);
    expect(isAlias('anon:abcdefgh2341')).toBe(false);
    expect(isAlias('anx:abcdefgh2345')).toBe(false);
  });

  it('should require contract_id, agent_id and a role to mint', () => {
    expect(validateMintAlias({ contractId: 'ctr_1', role: 'buyer', agentId: 'a1' })).toEqual({ contractId: 'ctr_1', role: 'buyer', agentId: 'a1', generation: 0 });
    expect(validateMintAlias({ contractId: 'ctr_1', role: 'buyer', agentId: 'a1', generation: 3 })).toEqual({ contractId: 'ctr_1', role: 'buyer', agentId: 'a1', generation: 3 });
    expect(codeOf(() => validateMintAlias({ contractId: 'ctr_1', role: 'buyer', agentId: 'a1', generation: -1 }))).toEqual({ grpc: status.INVALID_ARGUMENT, code: 'validation_failed' });
    expect(codeOf(() => validateMintAlias({ contractId: 'ctr_1', role: 'buyer', agentId: 'a1', generation: 1.5 }))).toEqual({ grpc: status.INVALID_ARGUMENT, code: 'validation_failed' });
    expect(codeOf(() => validateMintAlias({ contractId: '', role: 'buyer', agentId: 'a1' }))).toEqual({ grpc: status.INVALID_ARGUMENT, code: 'validation_failed' });
    expect(codeOf(() => validateMintAlias({ contractId: 'ctr_1', role: null, agentId: 'a1' }))).toEqual({ grpc: status.INVALID_ARGUMENT, code: 'validation_failed' });
    expect(codeOf(() => validateMintAlias({ contractId: 'ctr_1', role: 'seller', agentId: ' ' }))).toEqual({ grpc: status.INVALID_ARGUMENT, code: 'validation_failed' });
  });

  it('should require a well-formed alias and reveal_to to reveal', () => {
    const ok = { contractId: 'ctr_1', alias: 'anon:abcdefgh2345', revealTo: 'bob' };
    expect(validateReveal(ok)).toEqual(ok);
    expect(codeOf(() => validateReveal({ ...ok, alias: 'alice' })).code).toBe('validation_failed');
    expect(codeOf(() => validateReveal({ ...ok, revealTo: '' })).code).toBe('validation_failed');
    expect(codeOf(() => validateReveal({ ...ok, contractId: '' })).code).toBe('validation_failed');
  });

  it('should let an agent mint only its own alias; operator and services mint for anyone', () => {
    expect(() => assertMayMintAlias({ actor: 'agent:alice', agentId: null }, 'alice')).not.toThrow();
    expect(() => assertMayMintAlias({ actor: 'operator:ops', agentId: 'alice' }, 'alice')).not.toThrow();
    expect(() => assertMayMintAlias({ actor: 'operator:ops', agentId: null }, 'alice')).not.toThrow();
    expect(() => assertMayMintAlias({ actor: null, agentId: null }, 'alice')).not.toThrow();
    expect(codeOf(() => assertMayMintAlias({ actor: 'agent:bob', agentId: 'bob' }, 'alice'))).toEqual({
      grpc: status.PERMISSION_DENIED,
      code: 'not_contract_party',
    });
  });

  it('should let only the aliased agent or the operator (no acting agent) reveal', () => {
    expect(() => assertMayReveal({ actor: 'agent:alice', agentId: 'alice' }, 'alice')).not.toThrow();
    expect(() => assertMayReveal({ actor: 'operator:ops', agentId: null }, 'alice')).not.toThrow();
    expect(() => assertMayReveal({ actor: 'operator:ops', agentId: 'alice' }, 'alice')).not.toThrow();
    expect(codeOf(() => assertMayReveal({ actor: 'operator:ops', agentId: 'bob' }, 'alice')).code).toBe('not_alias_owner');
    expect(codeOf(() => assertMayReveal({ actor: 'agent:bob', agentId: null }, 'alice'))).toEqual({
      grpc: status.PERMISSION_DENIED,
      code: 'not_alias_owner',
    });
    expect(codeOf(() => assertMayReveal({ actor: null, agentId: null }, 'alice')).code).toBe('not_alias_owner');
  });

  it('should take the acting agent before the signing actor', () => {
    expect(actingAgentOf({ actor: 'agent:alice', agentId: null })).toBe('alice');
    expect(actingAgentOf({ actor: 'operator:ops', agentId: 'bob' })).toBe('bob');
    expect(actingAgentOf({ actor: 'operator:ops', agentId: null })).toBeNull();
  });

  it('should shape the token and reveal payloads', () => {
    expect(aliasTokenPayload('anon:abcdefgh2345', 'ctr_1', 'buyer')).toEqual({ alias: 'anon:abcdefgh2345', contract_id: 'ctr_1', role: 'buyer' });
    expect(revealPayload('anon:abcdefgh2345', 'alice', 'ctr_1', 'bob')).toEqual({
      alias: 'anon:abcdefgh2345',
      agent_id: 'alice',
      contract_id: 'ctr_1',
      reveal_to: 'bob',
    });
  });
});
