// RFC 6901: one escaping of a reference token, for every pointer the gateway reports.

/** A key as one JSON pointer token (`~` → `~0`, `/` → `~1`). */
export const escapePointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
