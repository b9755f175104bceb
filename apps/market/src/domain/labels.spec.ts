import { inputRefs, labels } from './labels';

const refused = (field: string) => expect.objectContaining({ code: 'validation_failed', grpcCode: 3, details: { field } });

describe('contract labels', () => {
  it('should keep valid labels as given and treat none as {}', () => {
    const given = { workflow_run_id: 'wfr_01', stage: 'map', shard: '3', attempt: '1', 'a.b-c_d': 'é ✓ x'.repeat(10) };
    expect(labels(given)).toEqual(given);
    expect(labels(undefined)).toEqual({});
    expect(labels({})).toEqual({});
  });
  it('should allow 16 labels and refuse a 17th', () => {
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    expect(Object.keys(labels(sixteen))).toHaveLength(16);
    expect(() => labels({ ...sixteen, k16: 'v' })).toThrow(refused('labels'));
  });
  it('should refuse keys outside [a-z0-9_.-]{1,64}, naming the key', () => {
    expect(labels({ ['k'.repeat(64)]: 'v' })).toEqual({ ['k'.repeat(64)]: 'v' });
    for (const bad of ['', 'Stage', 'has space', 'k'.repeat(65), 'ключ', 'a/b']) expect(() => labels({ [bad]: 'v' })).toThrow(refused('labels'));
    expect(() => labels({ 'Bad Key': 'v' })).toThrow(expect.objectContaining({ message: expect.stringContaining('"Bad Key"') }));
  });
  it('should refuse empty, over-long and control-character values; length in characters, not bytes', () => {
    expect(labels({ k: 'é'.repeat(256) })).toEqual({ k: 'é'.repeat(256) });
    for (const bad of ['', 'x'.repeat(257), 'a\u0000b', 'tab\there', 'line\n', '\u007f']) expect(() => labels({ k: bad })).toThrow(refused('labels'));
  });
});

describe('contract input_refs', () => {
  it('should keep up to 64 refs in order, duplicates included', () => {
    expect(inputRefs(['res_2', 'res_1', 'res_2'])).toEqual(['res_2', 'res_1', 'res_2']);
    expect(inputRefs(undefined)).toEqual([]);
    expect(inputRefs(Array.from({ length: 64 }, (_, i) => `r${i}`))).toHaveLength(64);
    expect(() => inputRefs(Array.from({ length: 65 }, (_, i) => `r${i}`))).toThrow(refused('input_refs'));
  });
  it('should refuse an empty, over-long or control-character ref, naming its index', () => {
    expect(inputRefs(['x'.repeat(512)])).toEqual(['x'.repeat(512)]);
    for (const bad of ['', 'x'.repeat(513), 'a\u0000']) expect(() => inputRefs(['ok', bad])).toThrow(refused('input_refs'));
    expect(() => inputRefs(['ok', ''])).toThrow(expect.objectContaining({ message: expect.stringContaining('input_refs[1]') }));
  });
});
