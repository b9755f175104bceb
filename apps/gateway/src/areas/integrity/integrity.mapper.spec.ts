import { marketV1Integrity } from '@exchange/proto';
import { MarketContractError } from '../../lib/mapper-kit';
import { auditEntryToJson, guardViewOf, integrityStateFromJson, snapshotToJson } from './integrity.mapper';

const I = marketV1Integrity;
const T = new Date('2026-11-21T18:00:00.000Z');
const NAMES = ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'];

const snapshot = (over: Partial<marketV1Integrity.IntegritySnapshot> = {}): marketV1Integrity.IntegritySnapshot => ({
  state: I.IntegrityState.INTEGRITY_STATE_RESTRICTED,
  since: T,
  reason: 'incident 42',
  setBy: 'operator:default',
  killSwitches: NAMES.map((name) =>
    name === 'read_only' ? { name, enabled: true, reason: 'migration', setBy: 'operator:default', updatedAt: T } : { name, enabled: false },
  ),
  walletControlsSynced: false,
  ...over,
});

describe('snapshotToJson', () => {
  it('should map the state, nullables and all six switches in order', () => {
    const json = snapshotToJson(snapshot());
    expect(json).toMatchObject({ state: 'restricted', since: T.toISOString(), reason: 'incident 42', set_by: 'operator:default', wallet_controls_synced: false });
    expect(json.kill_switches.map((k) => k.name)).toEqual(NAMES);
    expect(json.kill_switches[0]).toEqual({ name: 'new_contracts', enabled: false, reason: null, set_by: null, updated_at: null });
    expect(json.kill_switches[5]).toEqual({ name: 'read_only', enabled: true, reason: 'migration', set_by: 'operator:default', updated_at: T.toISOString() });
  });

  it('should give null for an absent reason and set_by', () => {
    expect(snapshotToJson(snapshot({ reason: undefined, setBy: undefined }))).toMatchObject({ reason: null, set_by: null });
  });

  it('should refuse an unspecified state, an unknown switch and a missing snapshot', () => {
    expect(() => snapshotToJson(snapshot({ state: I.IntegrityState.INTEGRITY_STATE_UNSPECIFIED }))).toThrow(MarketContractError);
    expect(() => snapshotToJson(snapshot({ killSwitches: [{ name: 'everything', enabled: true }] }))).toThrow(MarketContractError);
    expect(() => snapshotToJson(undefined)).toThrow(MarketContractError);
  });
});

describe('integrityStateFromJson', () => {
  it.each([
    ['normal', I.IntegrityState.INTEGRITY_STATE_NORMAL],
    ['elevated', I.IntegrityState.INTEGRITY_STATE_ELEVATED],
    ['restricted', I.IntegrityState.INTEGRITY_STATE_RESTRICTED],
    ['halted', I.IntegrityState.INTEGRITY_STATE_HALTED],
  ] as const)('should map %s', (name, value) => {
    expect(integrityStateFromJson(name)).toBe(value);
  });
});

describe('auditEntryToJson', () => {
  const entry = {
    auditId: 'iau_1',
    action: 'state_changed',
    operator: 'operator:default',
    reason: 'incident',
    subject: 'elevated',
    detailsJson: '{"after":"elevated","before":"normal"}',
    createdAt: T,
  };

  it('should parse details_json into an object', () => {
    expect(auditEntryToJson(entry)).toEqual({
      audit_id: 'iau_1',
      action: 'state_changed',
      operator: 'operator:default',
      reason: 'incident',
      subject: 'elevated',
      details: { before: 'normal', after: 'elevated' },
      created_at: T.toISOString(),
    });
  });

  it('should give {} for empty details and refuse malformed ones', () => {
    expect(auditEntryToJson({ ...entry, detailsJson: '' }).details).toEqual({});
    expect(() => auditEntryToJson({ ...entry, detailsJson: '{nope' })).toThrow(MarketContractError);
  });
});

describe('guardViewOf', () => {
  it('should report read_only and the enabled switches', () => {
    const view = guardViewOf(snapshot());
    expect(view.readOnly).toBe(true);
    expect([...view.enabledSwitches]).toEqual(['read_only']);
  });

  it('should be all off without a snapshot', () => {
    expect(guardViewOf(undefined)).toEqual({ readOnly: false, enabledSwitches: new Set() });
  });
});
