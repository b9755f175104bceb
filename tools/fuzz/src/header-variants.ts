// Hostile request headers (values are written as latin-1 bytes, so é goes out as 0xE9) and
// hostile methods on a known path.

export interface HeaderVariant {
  label: string;
  headers: Array<[string, string]>;
}

const h = (label: string, ...headers: Array<[string, string]>): HeaderVariant => ({ label, headers });

export const HEADER_VARIANTS: readonly HeaderVariant[] = [
  h('Idempotency-Key of 300 chars', ['Idempotency-Key', 'k'.repeat(300)]),
  h('empty Idempotency-Key', ['Idempotency-Key', '']),
  h('Idempotency-Key with a control char', ['Idempotency-Key', 'a\u0001b']),
  h('Idempotency-Key latin-1 byte', ['Idempotency-Key', 'clé']),
  h('Idempotency-Key with a tab', ['Idempotency-Key', 'a\tb']),
  h('Idempotency-Key SQL', ['Idempotency-Key', "k'; DROP TABLE idempotency_keys; --"]),
  h('X-Request-Id of 2000 chars', ['X-Request-Id', 'r'.repeat(2000)]),
  h('X-Request-Id latin-1', ['X-Request-Id', 'réq']),
  h('X-Request-Id traversal', ['X-Request-Id', '../../etc/passwd']),
  h('X-Request-Id template', ['X-Request-Id', '${7*7}{{7*7}}']),
  h('Accept XML', ['Accept', 'application/xml']),
  h('Accept nothing', ['Accept', '*/*;q=0']),
  h('X-Forwarded-For spoofed', ['X-Forwarded-For', '1.2.3.4']),
  h('X-Forwarded-For garbage', ['X-Forwarded-For', 'not-an-ip, ::ffff:zz']),
  h('X-Agent-Id not an agent id', ['X-Agent-Id', 'acme:agent:é']),
  h('X-Agent-Id of 500 chars', ['X-Agent-Id', `a:agent:${'x'.repeat(500)}`]),
  h('X-Agent-Timestamp alone', ['X-Agent-Timestamp', '1']),
  h('X-Agent-Signature alone', ['X-Agent-Signature', 'AAAA']),
  h('second Authorization header', ['Authorization', 'Bearer wrong-token-xxxxxxxxxxxxxxxx']),
  h('second Content-Type header', ['Content-Type', 'text/plain']),
  h('Host empty', ['Host', '']),
  h('20 KiB header', ['X-Fuzz', 'v'.repeat(20_000)]),
  h('100 KiB header', ['Cookie', `c=${'v'.repeat(100_000)}`]),
  h('200 headers', ...Array.from({ length: 200 }, (_, i): [string, string] => [`X-Fuzz-${i}`, String(i)])),
  h('Range', ['Range', 'bytes=0-1']),
  h('Upgrade websocket', ['Connection', 'Upgrade'], ['Upgrade', 'websocket']),
  h('header name with latin-1', ['X-Fuzzé', '1']),
  h('If-None-Match *', ['If-None-Match', '*']),
];

export const HOSTILE_METHODS: readonly string[] = ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'FUZZ', 'get', 'POST', 'GET'];
