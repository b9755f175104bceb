/**
 * The `UCP-Agent` request header: an RFC 8941 Dictionary whose `profile` member is the sender's
 * profile URL as an sf-string, `profile="https://platform.example/.well-known/ucp"`.
 * Parsing is tolerant: other members and parameters are kept, not rejected (the conformance suite
 * sends `profile="…"; version="2026-04-08"`; the protocol version really comes from the profile).
 */

export const UCP_AGENT_HEADER = 'UCP-Agent';

export type SfBareItem = string | number | boolean | { token: string } | { bytes: string };

export interface UcpAgent {
  profile: string;
  /** The profile member's parameters, and the other members by key (a profile parameter wins over a member of the same name). */
  params: Record<string, SfBareItem>;
}

/** `profile="<url>"`. Throws when the URL cannot be an sf-string (non-ASCII or control characters). */
export function buildUcpAgentHeader(profileUrl: string): string {
  if (!/^[\x20-\x7e]*$/.test(profileUrl)) throw new Error('UCP-Agent profile URL must be printable ASCII');
  return `profile="${profileUrl.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  peek(): string {
    return this.s[this.i] ?? '';
  }
  skip(chars: RegExp): void {
    while (this.i < this.s.length && chars.test(this.peek())) this.i++;
  }
  take(pattern: RegExp): string | null {
    pattern.lastIndex = this.i;
    const m = pattern.exec(this.s);
    if (!m) return null;
    this.i += m[0].length;
    return m[0];
  }
}

function readKey(r: Reader): string | null {
  // RFC 8941 keys are lowercase; accept any case and fold it (tolerant).
  const key = r.take(/[A-Za-z*][A-Za-z0-9_\-.*]*/y);
  return key === null ? null : key.toLowerCase();
}

function readString(r: Reader): string | null {
  r.i++; // opening quote
  let out = '';
  while (r.i < r.s.length) {
    const c = r.s[r.i++];
    if (c === '"') return out;
    if (c === '\\') {
      const next = r.s[r.i++];
      if (next !== '"' && next !== '\\') return null;
      out += next;
    } else {
      out += c;
    }
  }
  return null;
}

function readBareItem(r: Reader): SfBareItem | null {
  const c = r.peek();
  if (c === '"') return readString(r);
  if (c === '?') {
    const b = r.take(/\?[01]/y);
    return b === null ? null : b === '?1';
  }
  if (c === ':') {
    const bytes = r.take(/:[A-Za-z0-9+/=]*:/y);
    return bytes === null ? null : { bytes: bytes.slice(1, -1) };
  }
  const num = r.take(/-?\d+(\.\d+)?/y);
  if (num !== null) return Number(num);
  const token = r.take(/[A-Za-z*][!#$%&'*+\-.^_`|~:/A-Za-z0-9]*/y);
  return token === null ? null : { token };
}

/** `;key[=value]` parameters; a bare key is `true`. */
function readParams(r: Reader, into: Record<string, SfBareItem>): boolean {
  for (;;) {
    r.skip(/[ \t]/);
    if (r.peek() !== ';') return true;
    r.i++;
    r.skip(/[ \t]/);
    const key = readKey(r);
    if (key === null) return false;
    let value: SfBareItem | null = true;
    if (r.peek() === '=') {
      r.i++;
      value = readBareItem(r);
      if (value === null) return false;
    }
    if (!(key in into)) into[key] = value;
  }
}

/**
 * The profile URL (and other parameters) of a `UCP-Agent` header, or null when the header is
 * missing, unparsable or has no string `profile` member. Inner lists are not expected here: a member
 * holding one makes the header unparsable.
 */
export function parseUcpAgentHeader(value: string | readonly string[] | undefined | null): UcpAgent | null {
  if (value === undefined || value === null) return null;
  // Several header lines form one dictionary (RFC 8941 §4.2).
  const r = new Reader(typeof value === 'string' ? value : value.join(','));
  const params: Record<string, SfBareItem> = {};
  let profile: string | null = null;
  r.skip(/[ \t]/);
  while (r.i < r.s.length) {
    const key = readKey(r);
    if (key === null) return null;
    let item: SfBareItem | null = true;
    if (r.peek() === '=') {
      r.i++;
      item = readBareItem(r);
      if (item === null) return null;
    }
    const memberParams: Record<string, SfBareItem> = {};
    if (!readParams(r, memberParams)) return null;
    if (key === 'profile' && typeof item === 'string') {
      profile = item; // the last `profile` member wins, as for any duplicated dictionary key
      Object.assign(params, memberParams);
    } else if (key !== 'profile' && !(key in params)) {
      params[key] = item;
    }
    r.skip(/[ \t]/);
    if (r.i >= r.s.length) break;
    if (r.peek() !== ',') return null;
    r.i++;
    r.skip(/[ \t]/);
  }
  return profile === null ? null : { profile, params };
}
