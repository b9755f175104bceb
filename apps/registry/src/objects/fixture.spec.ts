import { isDomainError } from '@exchange/platform';
import { checkFixturePayload } from './fixture';

const valid = { fixture_id: 'sorting.unit-tests_v1', type: 'unit_tests', evidence_tier: 'reproducible', determinism_class: 'deterministic', spec: { command: 'npm test' } };

/** The error's code and field, or 'ok' when the payload passes. */
function outcome(payload: unknown, type = 'fixture'): string {
  try {
    checkFixturePayload(type, payload);
    return 'ok';
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return `${err.code} ${(err.details as { field: string }).field}`;
  }
}

describe('fixture payload', () => {
  it('should accept every listed type, evidence tier and determinism class', () => {
    expect(outcome(valid)).toBe('ok');
    for (const type of ['unit_tests', 'golden_output', 'schema_validation', 'reference_dataset', 'benchmark', 'property_tests']) expect(outcome({ ...valid, type })).toBe('ok');
    for (const tier of ['self_reported', 'verifier_checked', 'reproducible', 'attested']) expect(outcome({ ...valid, evidence_tier: tier })).toBe('ok');
    for (const d of ['deterministic', 'bounded', 'nondeterministic']) expect(outcome({ ...valid, determinism_class: d })).toBe('ok');
    expect(outcome({ ...valid, spec: {} })).toBe('ok');
    expect(outcome({ ...valid, fixture_id: 'a'.repeat(128) })).toBe('ok');
  });

  it('should refuse a malformed payload with fixture_invalid naming the field', () => {
    expect(outcome(['x'])).toBe('fixture_invalid payload');
    expect(outcome(null)).toBe('fixture_invalid payload');
    expect(outcome({ ...valid, fixture_id: 'Upper' })).toBe('fixture_invalid payload.fixture_id');
    expect(outcome({ ...valid, fixture_id: '-lead' })).toBe('fixture_invalid payload.fixture_id');
    expect(outcome({ ...valid, fixture_id: 'a'.repeat(129) })).toBe('fixture_invalid payload.fixture_id');
    expect(outcome({ ...valid, fixture_id: 7 })).toBe('fixture_invalid payload.fixture_id');
    const { fixture_id: _omit, ...noId } = valid;
    expect(outcome(noId)).toBe('fixture_invalid payload.fixture_id');
    expect(outcome({ ...valid, type: 'smoke_test' })).toBe('fixture_invalid payload.type');
    expect(outcome({ ...valid, evidence_tier: 'trusted' })).toBe('fixture_invalid payload.evidence_tier');
    expect(outcome({ ...valid, determinism_class: 'flaky' })).toBe('fixture_invalid payload.determinism_class');
    expect(outcome({ ...valid, spec: 'npm test' })).toBe('fixture_invalid payload.spec');
    expect(outcome({ ...valid, spec: [1] })).toBe('fixture_invalid payload.spec');
    expect(outcome({ ...valid, spec: null })).toBe('fixture_invalid payload.spec');
    expect(outcome({ ...valid, owner: 'me' })).toBe('fixture_invalid payload.owner');
  });

  it('should leave other object types alone', () => {
    expect(outcome({ anything: true }, 'note')).toBe('ok');
    expect(outcome('text', 'fixtures')).toBe('ok');
  });
});
