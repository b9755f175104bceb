import { findExecutable } from './describe-with-executable';

describe('findExecutable', () => {
  it('finds a program on PATH and by absolute path, and reports a missing one as null', () => {
    expect(findExecutable('sh')).toMatch(/\/sh$/);
    expect(findExecutable(process.execPath)).toBe(process.execPath);
    expect(findExecutable('definitely-not-a-program-here')).toBeNull();
    expect(findExecutable('sh', { PATH: '/nonexistent' })).toBeNull();
  });
});
