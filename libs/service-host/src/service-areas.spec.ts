import { testLogger } from '@exchange/testing';
import { mergeAreaHandlers, serviceArea } from './service-areas';

interface Services {
  greeting: string;
}
interface GreeterServer {
  hello(): string;
  bye(): string;
}

describe('mergeAreaHandlers', () => {
  const AREAS = [
    serviceArea('hello', (s: Services) => ({ hello: () => `${s.greeting} hello` })),
    serviceArea('bye', (s: Services) => ({ bye: () => `${s.greeting} bye` })),
  ] as const;

  it('merges every area, each given the services', () => {
    const server: GreeterServer = mergeAreaHandlers(AREAS, { greeting: 'say' }, testLogger);
    expect(server.hello()).toBe('say hello');
    expect(server.bye()).toBe('say bye');
  });

  it('refuses two areas handling one RPC, naming both', () => {
    const clash = [serviceArea('a', () => ({ hello: () => 'a' })), serviceArea('b', () => ({ hello: () => 'b' }))] as const;
    expect(() => mergeAreaHandlers(clash, {}, testLogger)).toThrow('RPC hello is handled by two areas: a and b');
  });

  it('leaves a missing RPC to the compiler', () => {
    const partial = mergeAreaHandlers([AREAS[0]] as const, { greeting: 'x' }, testLogger);
    // @ts-expect-error — `bye` has no area, so the merged handlers are not a GreeterServer.
    const server: GreeterServer = partial;
    expect(Object.keys(server)).toEqual(['hello']);
  });
});
