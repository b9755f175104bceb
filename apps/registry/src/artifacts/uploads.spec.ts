import type { Viewer } from '../domain/caller';
import { uploadRank, visibleUploads, type UploadFacts } from './uploads';

const A = 't:agent:a';
const B = 't:agent:b';
const P = 't:agent:p';
const C = 't:agent:c';
const agent = (agentId: string): Viewer => ({ kind: 'agent', agentId });
const operator: Viewer = { kind: 'operator', name: 'ops' };
const anonymous: Viewer = { kind: 'anonymous' };

// A shared the bytes with P; B uploaded the same bytes for the operator only; O is the operator's own public upload.
const byA: UploadFacts & { id: string } = { id: 'a', uploadedBy: A, access: 'parties', parties: [A, P] };
const byB: UploadFacts & { id: string } = { id: 'b', uploadedBy: B, access: 'operator', parties: [B] };
const byOp: UploadFacts & { id: string } = { id: 'o', uploadedBy: '', access: 'public', parties: [] };
const ids = (v: Viewer, list = [byA, byB]) => visibleUploads(v, list).map((u) => u.id);

describe('which uploads of the same bytes a viewer sees', () => {
  it('each uploader sees its own upload, whatever the other uploads allow', () => {
    expect(ids(agent(A))).toEqual(['a']);
    // The access table holds for the uploader too: an operator-only upload is the operator's to read.
    expect(uploadRank(agent(B), byB)).toBeNull();
    expect(ids(agent(B), [byA, { ...byB, access: 'parties' }])).toEqual(['b']);
  });

  it("a listed party sees the upload it is a party of; a stranger and anonymous see none unless public", () => {
    expect(ids(agent(P))).toEqual(['a']);
    expect(ids(agent(C))).toEqual([]);
    expect(ids(anonymous)).toEqual([]);
    expect(ids(agent(C), [byA, byB, byOp])).toEqual(['o']);
    expect(ids(anonymous, [byA, byB, byOp])).toEqual(['o']);
  });

  it('own upload first, then one the viewer is a party of, then public; oldest first within a rank', () => {
    const publicByB = { ...byB, id: 'b', access: 'public' as const };
    expect(ids(agent(P), [publicByB, byA])).toEqual(['a', 'b']);
    const ownByP = { id: 'p', uploadedBy: P, access: 'parties' as const, parties: [P] };
    expect(ids(agent(P), [publicByB, byA, ownByP])).toEqual(['p', 'a', 'b']);
    const secondByA = { ...byA, id: 'a2' };
    expect(ids(agent(A), [byA, secondByA])).toEqual(['a', 'a2']);
  });

  it('the operator sees every upload, its own first', () => {
    expect(ids(operator)).toEqual(['a', 'b']);
    expect(ids(operator, [byA, byB, byOp])).toEqual(['o', 'a', 'b']);
  });
});
