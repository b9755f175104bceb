import { status } from '@grpc/grpc-js';
import { DomainError } from '@exchange/platform';
import { IDENTITY_LEVELS, type IdentityLevel } from './agent.model';
import {
  LEVEL_TRANSITIONS,
  assertLevelChange,
  assertRegistrableLevel,
  defaultRegistrationLevel,
  isIdentityLevel,
  levelRank,
} from './identity-levels';

function errorOf(fn: () => void): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('identity levels', () => {
  describe('assertLevelChange', () => {
    const pairs: Array<[IdentityLevel, IdentityLevel]> = IDENTITY_LEVELS.flatMap((from) =>
      IDENTITY_LEVELS.map((to): [IdentityLevel, IdentityLevel] => [from, to]),
    );

    // The rule, restated independently of the table: one step up, or any number down.
    const expectedAllowed = (from: IdentityLevel, to: IdentityLevel) => {
      const delta = IDENTITY_LEVELS.indexOf(to) - IDENTITY_LEVELS.indexOf(from);
      return delta === 1 || delta < 0;
    };

    it.each(pairs)('should decide %s → %s by the one-step-up / any-step-down rule', (from, to) => {
      if (expectedAllowed(from, to)) {
        expect(() => assertLevelChange(from, to)).not.toThrow();
      } else {
        const err = errorOf(() => assertLevelChange(from, to));
        expect(err.grpcCode).toBe(status.FAILED_PRECONDITION);
        expect(err.code).toBe('invalid_state');
        expect(err.details).toEqual({ current: from, wanted: to });
      }
    });

    it('should allow exactly 14 of the 25 pairs', () => {
      expect(pairs.filter(([f, t]) => expectedAllowed(f, t))).toHaveLength(14);
      expect(Object.values(LEVEL_TRANSITIONS).flat()).toHaveLength(14);
    });

    it('should refuse staying at the same level', () => {
      expect(errorOf(() => assertLevelChange('MAINNET_BASIC', 'MAINNET_BASIC')).details).toEqual({
        current: 'MAINNET_BASIC',
        wanted: 'MAINNET_BASIC',
      });
    });

    it('should refuse skipping a level upwards', () => {
      expect(errorOf(() => assertLevelChange('SANDBOX_UNVERIFIED', 'MAINNET_ATTESTED')).code).toBe('invalid_state');
    });
  });

  it('should rank levels in spec order', () => {
    expect(levelRank('SANDBOX_UNVERIFIED')).toBe(0);
    expect(levelRank('MAINNET_INSTITUTIONAL')).toBe(4);
  });

  it('should recognise level names', () => {
    expect(isIdentityLevel('MAINNET_VERIFIED')).toBe(true);
    expect(isIdentityLevel('IDENTITY_LEVEL_MAINNET_VERIFIED')).toBe(false);
    expect(isIdentityLevel('mainnet_verified')).toBe(false);
  });

  describe('registration levels', () => {
    it('should default to SANDBOX_UNVERIFIED in sandbox and MAINNET_BASIC in mainnet', () => {
      expect(defaultRegistrationLevel('sandbox')).toBe('SANDBOX_UNVERIFIED');
      expect(defaultRegistrationLevel('mainnet')).toBe('MAINNET_BASIC');
    });

    it.each(IDENTITY_LEVELS)('should allow %s in sandbox only when it is SANDBOX_UNVERIFIED', (level) => {
      if (level === 'SANDBOX_UNVERIFIED') {
        expect(() => assertRegistrableLevel('sandbox', level)).not.toThrow();
      } else {
        const err = errorOf(() => assertRegistrableLevel('sandbox', level));
        expect(err.grpcCode).toBe(status.PERMISSION_DENIED);
        expect(err.code).toBe('identity_level_not_allowed');
      }
    });

    it.each(IDENTITY_LEVELS)('should allow %s in mainnet unless it is SANDBOX_UNVERIFIED', (level) => {
      if (level === 'SANDBOX_UNVERIFIED') {
        expect(errorOf(() => assertRegistrableLevel('mainnet', level)).code).toBe('identity_level_not_allowed');
      } else {
        expect(() => assertRegistrableLevel('mainnet', level)).not.toThrow();
      }
    });
  });
});
