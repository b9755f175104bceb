import { normalizeControls, sameControls, withStartupControls } from './controls';

describe('controls', () => {
  it('should normalize switch order and duplicates', () => {
    expect(normalizeControls({ readOnly: false, killSwitches: ['settlements', 'faucet', 'faucet'] })).toEqual({
      readOnly: false,
      killSwitches: ['faucet', 'settlements'],
    });
  });

  it('should refuse an unknown switch', () => {
    expect(() => normalizeControls({ readOnly: false, killSwitches: ['everything'] })).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });

  it('should let start-up configuration only add to the persisted controls', () => {
    const merged = withStartupControls({ readOnly: false, killSwitches: ['withdrawals'] }, { readOnly: true, killSwitches: ['faucet'] });
    expect(merged).toEqual({ readOnly: true, killSwitches: ['withdrawals', 'faucet'] });
    expect(sameControls(withStartupControls(merged, { readOnly: false, killSwitches: [] }), merged)).toBe(true);
  });
});
