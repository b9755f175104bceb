import * as proto from './index';
import { wireEnum, type WireEnum } from './wire-enum';

describe('wireEnum', () => {
  enum Color {
    COLOR_UNSPECIFIED = 0,
    COLOR_RED = 1,
    COLOR_DARK_BLUE = 2,
    UNRECOGNIZED = -1,
  }
  const color = wireEnum<Color, 'red' | 'dark_blue'>([
    [Color.COLOR_RED, 'red'],
    [Color.COLOR_DARK_BLUE, 'dark_blue'],
  ]);

  it('maps both ways and lists the names in proto order', () => {
    expect(color.toWire(Color.COLOR_DARK_BLUE)).toBe('dark_blue');
    expect(color.fromWire('red')).toBe(Color.COLOR_RED);
    expect(color.names).toEqual(['red', 'dark_blue']);
    expect(Object.isFrozen(color.names)).toBe(true);
  });

  it('has no name for UNSPECIFIED, UNRECOGNIZED or unknown numbers, and no value for other strings', () => {
    for (const value of [Color.COLOR_UNSPECIFIED, Color.UNRECOGNIZED, 7, undefined]) expect(color.toWire(value)).toBeUndefined();
    for (const name of ['RED', 'COLOR_RED', '', 'toString', '__proto__', undefined]) expect(color.fromWire(name)).toBeUndefined();
  });

  it('toProto answers a typed name and throws, naming the choices, for anything else', () => {
    expect(color.toProto('dark_blue')).toBe(Color.COLOR_DARK_BLUE);
    expect(() => color.toProto('green' as 'red')).toThrow('"green" is not one of red, dark_blue');
  });
});

// The generated tables (tools/codegen/wire-enums.ts) against the ts-proto enums they index.
describe('generated wire tables', () => {
  const tables = Object.entries(proto).filter(([ns]) => ns.endsWith('Wire'));
  const cases = tables.flatMap(([ns, module]) =>
    Object.entries(module as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'object' && v !== null && 'toWire' in v)
      .map(([name, table]) => [`${ns}.${name}`, ns, name, table as WireEnum<number, string>] as const),
  );

  it('cover every enum of every proto package', () => {
    expect(tables.map(([ns]) => ns).sort()).toEqual(
      ['commerceV1Wire', 'identityV1Wire', 'marketV1InsightsWire', 'marketV1IntegrityWire', 'marketV1Wire', 'registryV1Wire', 'telemetryV1Wire', 'walletV1MeteringWire', 'walletV1Wire', 'workflowsV1Wire'],
    );
    expect(cases.length).toBeGreaterThanOrEqual(24);
  });

  it.each(cases)('%s names every value but UNSPECIFIED, the prefix stripped', (_label, ns, name, table) => {
    const protoNs = (proto as unknown as Record<string, Record<string, Record<string, string | number>>>)[ns.replace(/Wire$/, '')];
    const enumName = name.charAt(0).toUpperCase() + name.slice(1);
    const protoEnum = protoNs[enumName];
    const prefix = `${enumName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_`;
    const values = Object.entries(protoEnum).filter(([key, v]) => typeof v === 'number' && v > 0 && key !== 'UNRECOGNIZED');
    expect(table.names).toHaveLength(values.length);
    for (const [key, value] of values) {
      const wire = table.toWire(value as number);
      const bare = key.slice(prefix.length);
      expect([bare.toLowerCase(), bare]).toContain(wire);
      expect(table.fromWire(wire)).toBe(value);
    }
    expect(table.toWire(0)).toBeUndefined();
  });

  it('keeps the identity levels upper-case (wire-case: upper) and lower-cases the rest', () => {
    expect(proto.identityV1Wire.identityLevel.toWire(proto.identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC)).toBe('MAINNET_BASIC');
    expect(proto.walletV1Wire.holdStatus.toWire(proto.walletV1.HoldStatus.HOLD_STATUS_ACTIVE)).toBe('active');
    expect(proto.marketV1Wire.verificationWindow.fromWire('1h')).toBe(proto.marketV1.VerificationWindow.VERIFICATION_WINDOW_1H);
  });
});
