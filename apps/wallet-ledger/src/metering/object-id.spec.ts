import { canonicalize, sha256Hex } from '@exchange/crypto';
import { registryObjectId } from './object-id';

describe('registryObjectId', () => {
  it('is sha256 of canonical({type, payload, signer_agent_id}), whatever the key order', () => {
    const want = `sha256:${sha256Hex(canonicalize({ type: 'meter_event', payload: { a: 1, b: 2 }, signer_agent_id: 'x:agent:y' }))}`;
    expect(registryObjectId('meter_event', { b: 2, a: 1 }, 'x:agent:y')).toBe(want);
    expect(registryObjectId('meter_event', { b: 2, a: 1 }, 'x:agent:z')).not.toBe(want);
  });
});
