// Minimal HTTP helpers for the e2e suite (raw fetch, so the tests see exactly what agents see).
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function http<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let payload: string | undefined;
  if (opts.rawBody !== undefined) payload = opts.rawBody;
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, { method, headers, body: payload });
  const text = await res.text();
  let body: any = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

/** Asserts an RFC 9457 problem with the given status and code, returning it. */
export function expectProblem(res: HttpResult, status: number, code: string) {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({
    type: `https://agent-exchange.dev/errors/${code}`,
    status,
    code,
  });
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.request_id).toBe('string');
  expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
  return res.body;
}
