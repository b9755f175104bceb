import type { Viewer } from './caller';

export type Visibility = 'public' | 'parties' | 'operator';

export type ViewerKind = Viewer['kind'] | 'party';

/**
 * Who reads what (proto RegistryService comment). Rows: visibility; columns: the viewer as
 * classified for this record (an agent that is one of the record's parties is a `party`).
 */
export const ACCESS_TABLE: Record<Visibility, Record<ViewerKind, boolean>> = {
  public: { operator: true, party: true, agent: true, anonymous: true },
  parties: { operator: true, party: true, agent: false, anonymous: false },
  operator: { operator: true, party: false, agent: false, anonymous: false },
};

/** The viewer's class for a record whose parties (signer/uploader, listed, contract's) are `parties`. */
export function classify(viewer: Viewer, parties: Iterable<string>): ViewerKind {
  if (viewer.kind !== 'agent') return viewer.kind;
  for (const p of parties) if (p === viewer.agentId) return 'party';
  return 'agent';
}

export function canRead(visibility: Visibility, viewer: Viewer, parties: Iterable<string>): boolean {
  return ACCESS_TABLE[visibility][classify(viewer, parties)];
}
