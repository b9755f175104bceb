import { isDomainError } from '@exchange/platform';
import { fixtureFilter, parseFixturePayload } from './fixture';

const valid = { fixture_id: 'csv-parser.golden', type: 'golden_output', evidence_tier: 'verifier_checked', determinism_class: 'bounded', spec: { inputs: ['a.csv'] } };

function filterError(req: Parameters<typeof fixtureFilter>[0]): string {
  try {
    fixtureFilter(req);
    return 'ok';
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return `${err.code} ${(err.details as { field: string }).field}`;
  }
}

describe('parseFixturePayload (what the index accepts)', () => {
  it('should read a valid payload', () => {
    expect(parseFixturePayload(valid)).toEqual({
      ok: true,
      fixture: { fixtureId: 'csv-parser.golden', type: 'golden_output', evidenceTier: 'verifier_checked', determinismClass: 'bounded', spec: { inputs: ['a.csv'] } },
    });
  });

  it('should name the first wrong field', () => {
    expect(parseFixturePayload('x')).toMatchObject({ ok: false, field: 'payload' });
    expect(parseFixturePayload({ ...valid, extra: 1 })).toMatchObject({ ok: false, field: 'payload.extra' });
    expect(parseFixturePayload({ ...valid, fixture_id: 'A' })).toMatchObject({ ok: false, field: 'payload.fixture_id' });
    expect(parseFixturePayload({ ...valid, type: 'smoke' })).toMatchObject({ ok: false, field: 'payload.type' });
    expect(parseFixturePayload({ ...valid, evidence_tier: 'x' })).toMatchObject({ ok: false, field: 'payload.evidence_tier' });
    expect(parseFixturePayload({ ...valid, determinism_class: 'x' })).toMatchObject({ ok: false, field: 'payload.determinism_class' });
    expect(parseFixturePayload({ ...valid, spec: [] })).toMatchObject({ ok: false, field: 'payload.spec' });
  });
});

describe('fixtureFilter', () => {
  it('should pass known values through and treat empty as no filter', () => {
    expect(fixtureFilter({ fixtureId: 'a.b', type: 'benchmark', evidenceTier: 'attested', determinismClass: 'nondeterministic' })).toEqual({
      fixtureId: 'a.b',
      type: 'benchmark',
      evidenceTier: 'attested',
      determinismClass: 'nondeterministic',
    });
    expect(fixtureFilter({ fixtureId: '', type: '' })).toEqual({ fixtureId: undefined, type: undefined, evidenceTier: undefined, determinismClass: undefined });
  });

  it('should refuse a value outside its enum with 400 validation_failed naming the filter', () => {
    expect(filterError({ type: 'unit-tests' })).toBe('validation_failed type');
    expect(filterError({ evidenceTier: 'gold' })).toBe('validation_failed evidence_tier');
    expect(filterError({ determinismClass: 'random' })).toBe('validation_failed determinism_class');
    expect(filterError({ fixtureId: 'Bad Id' })).toBe('validation_failed fixture_id');
  });
});
