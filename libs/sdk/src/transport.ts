// One HTTP exchange with the gateway: URL building, auth headers (operator token or agent
// signature), JSON in/out, problem+json → ExchangeApiError. Area modules (agents, later wallets…)
// call `request` and never touch fetch themselves.
import { ExchangeNetworkError, isTimeoutLike } from './errors';
import { agentSignatureHeaders, unixSeconds } from './keys';
import { problemToError } from './problem';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface AgentCredentials {
  agentId: string;
  /** 32-byte ed25519 seed of one of the agent's unrevoked keys. */
  privateKey: Uint8Array;
}

export interface TransportOptions {
  /** e.g. `http://127.0.0.1:8080` */
  baseUrl: string;
  /** Operator bearer token; when set, requests are not agent-signed. */
  operatorToken?: string;
  /** Sign every request as this agent (DESIGN §3) when no operator token is given. */
  agent?: AgentCredentials;
  /** With an operator token: act on behalf of this agent (`X-Agent-Id`). */
  actingAgentId?: string;
  fetch?: FetchLike;
  /** Per request; default 30 s. */
  timeoutMs?: number;
  userAgent?: string;
  /** Clock for signature timestamps; defaults to the system clock. */
  now?: () => Date;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, already URL-encoded per segment (use `pathSegment`). */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A non-JSON body sent as these exact bytes (e.g. multipart/form-data); `body` is then ignored. */
  rawBody?: { bytes: Uint8Array; contentType: string };
  /** Non-2xx statuses whose JSON body is a normal answer (e.g. 503 from /health). */
  acceptStatuses?: number[];
  /** Extra request headers (lowercase names), e.g. `idempotency-key`. */
  headers?: Record<string, string>;
}

/** A parsed answer with the parts of the HTTP response an area module may need. */
export interface TransportResponse<T> {
  body: T;
  status: number;
  headers: Headers;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_USER_AGENT = 'exchange-sdk/0.1.0';

/** Encodes one path segment; `:` stays literal because agent ids use it and it is legal in paths. */
export function pathSegment(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ':');
}

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export class Transport {
  private readonly baseUrl: string;
  private readonly fetchFn: FetchLike;

  constructor(readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Bound late so a test or polyfill that replaces globalThis.fetch is honoured.
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async request<T>(opts: RequestOptions): Promise<T> {
    return (await this.send<T>(opts)).body;
  }

  /** Like `request`, and also returns the status and response headers (e.g. `Idempotent-Replayed`). */
  async send<T>(opts: RequestOptions): Promise<TransportResponse<T>> {
    const { url, response, bytes } = await this.exchange(opts);
    const text = bytes.toString('utf8');
    if (!response.ok && !(opts.acceptStatuses ?? []).includes(response.status)) {
      throw problemToError(response.status, response.statusText, response.headers, text);
    }
    if (text === '') return { body: undefined as T, status: response.status, headers: response.headers };
    try {
      return { body: JSON.parse(text) as T, status: response.status, headers: response.headers };
    } catch (err) {
      throw new ExchangeNetworkError('network_error', opts.method, url, new Error(`response is not JSON: ${(err as Error).message}`));
    }
  }

  /** The response body as bytes (downloads); non-2xx answers still become ExchangeApiError. */
  async sendBytes(opts: RequestOptions): Promise<TransportResponse<Buffer>> {
    const { response, bytes } = await this.exchange(opts);
    if (!response.ok && !(opts.acceptStatuses ?? []).includes(response.status)) {
      throw problemToError(response.status, response.statusText, response.headers, bytes.toString('utf8'));
    }
    return { body: bytes, status: response.status, headers: response.headers };
  }

  /**
   * The response body as a stream (JSONL exports), once the status and headers arrived; non-2xx
   * answers still become ExchangeApiError. The timeout covers the wait for the headers only (an
   * export may stream for long); `signal` cancels the request, the body included.
   */
  async openStream(opts: RequestOptions & { signal?: AbortSignal }): Promise<TransportResponse<ReadableStream<Uint8Array>>> {
    const url = `${this.baseUrl}${opts.path}${buildQuery(opts.query)}`;
    const headers = { ...opts.headers, ...this.headersFor(opts.method, new URL(url), undefined, undefined) };
    const controller = new AbortController();
    const abort = () => controller.abort(opts.signal?.reason);
    if (opts.signal?.aborted) abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    const timer = setTimeout(() => controller.abort(new DOMException('headers not received in time', 'TimeoutError')), this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let response: Response;
    try {
      response = await this.fetchFn(url, { method: opts.method, headers, signal: controller.signal });
    } catch (err) {
      opts.signal?.removeEventListener('abort', abort);
      throw new ExchangeNetworkError(isTimeoutLike(err) ? 'timeout' : 'network_error', opts.method, url, err);
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) {
      opts.signal?.removeEventListener('abort', abort);
      throw problemToError(response.status, response.statusText, response.headers, await response.text());
    }
    const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    return { body, status: response.status, headers: response.headers };
  }

  private async exchange(opts: RequestOptions): Promise<{ url: string; response: Response; bytes: Buffer }> {
    const url = `${this.baseUrl}${opts.path}${buildQuery(opts.query)}`;
    // Serialized once: these exact bytes are both sent and hashed into the signature.
    const body: string | Uint8Array | undefined = opts.rawBody !== undefined ? opts.rawBody.bytes : opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const contentType = opts.rawBody !== undefined ? opts.rawBody.contentType : body === undefined ? undefined : 'application/json';
    const headers = { ...opts.headers, ...this.headersFor(opts.method, new URL(url), body, contentType) };
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      const response = await this.fetchFn(url, { method: opts.method, headers, body: body as RequestInit['body'], signal: AbortSignal.timeout(timeoutMs) });
      const bytes = Buffer.from(await response.arrayBuffer());
      return { url, response, bytes };
    } catch (err) {
      throw new ExchangeNetworkError(isTimeoutLike(err) ? 'timeout' : 'network_error', opts.method, url, err);
    }
  }

  private headersFor(method: string, url: URL, body: string | Uint8Array | undefined, contentType: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      'user-agent': this.options.userAgent ?? DEFAULT_USER_AGENT,
    };
    if (contentType !== undefined) headers['content-type'] = contentType;

    const { operatorToken, agent, actingAgentId } = this.options;
    if (operatorToken) {
      headers['authorization'] = `Bearer ${operatorToken}`;
      if (actingAgentId) headers['x-agent-id'] = actingAgentId;
    } else if (agent) {
      const signed = agentSignatureHeaders({
        agentId: agent.agentId,
        method,
        path: `${url.pathname}${url.search}`,
        body,
        timestamp: unixSeconds(this.options.now?.() ?? new Date()),
        privateKey: agent.privateKey,
      });
      for (const [name, value] of Object.entries(signed)) headers[name.toLowerCase()] = value;
    } else if (actingAgentId) {
      headers['x-agent-id'] = actingAgentId;
    }
    return headers;
  }
}
