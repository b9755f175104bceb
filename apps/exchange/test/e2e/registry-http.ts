import { randomBytes } from 'node:crypto';
import { http, type HttpResult } from './http';
import { MarketHttp } from './market-http';
import { canonicalJson, type RawAgent } from './raw-agent';

// Raw-HTTP helpers for the registry, casefile and alias e2e suites (registry-*, casefile-*,
// aliases-*.e2e.spec.ts): objects signed the way /skill.md tells an agent to (ed25519 over the
// canonical JSON of the payload), artifacts as JSON base64 or multipart, anonymous calls (401 but for the public routes).

export const MiB = 1024 * 1024;
export const MAX_ARTIFACT = 25 * MiB;

export class RegistryHttp extends MarketHttp {
  /** No token, no signature. */
  anon<T = any>(method: string, path: string, body?: unknown): Promise<HttpResult<T>> {
    return http<T>(this.baseUrl, method, path, { body });
  }

  /** base64 ed25519 by `signer` over canonical(payload). */
  signPayload(signer: RawAgent, payload: unknown): string {
    return signer.signBase64(canonicalJson(payload));
  }

  objectBody(signer: RawAgent, payload: unknown, extra: Record<string, unknown> = {}) {
    return { type: 'note', payload, signer_agent_id: signer.agentId, signature: this.signPayload(signer, payload), ...extra };
  }

  storeObject(actor: RawAgent, body: Record<string, unknown>): Promise<HttpResult> {
    return this.as(actor, 'POST', '/v1/objects', body);
  }

  uploadJson(actor: RawAgent | 'operator', content: Buffer, fields: Record<string, unknown> = {}): Promise<HttpResult> {
    const body = { content_base64: content.toString('base64'), media_type: 'application/octet-stream', ...fields };
    return actor === 'operator' ? this.op('POST', '/v1/artifacts', body) : this.as(actor, 'POST', '/v1/artifacts', body);
  }

  /** multipart/form-data with the operator token acting as `actingAgentId` (when given): part `file` + fields. */
  async uploadMultipart(content: Buffer, fields: Record<string, string | string[]>, actingAgentId?: string): Promise<HttpResult> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
    }
    form.append('file', new Blob([content], { type: 'application/octet-stream' }), 'upload.bin');
    const headers: Record<string, string> = { authorization: `Bearer ${this.operatorToken}` };
    if (actingAgentId) headers['x-agent-id'] = actingAgentId;
    const res = await fetch(`${this.baseUrl}/v1/artifacts`, { method: 'POST', headers, body: form });
    const text = await res.text();
    const parsed = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  /** GET the artifact's bytes (operator, acting agent via the operator token, or anonymous). */
  async download(ref: string, who: 'operator' | 'anon' | RawAgent): Promise<{ status: number; headers: Headers; bytes: Buffer; body: any }> {
    const path = `/v1/artifacts/${encodeURIComponent(ref)}`;
    const headers: Record<string, string> =
      who === 'operator' ? { authorization: `Bearer ${this.operatorToken}` } : who === 'anon' ? {} : who.signedHeaders('GET', path, '');
    const res = await fetch(this.baseUrl + path, { headers });
    const bytes = Buffer.from(await res.arrayBuffer());
    const isJson = (res.headers.get('content-type') ?? '').includes('json');
    return { status: res.status, headers: res.headers, bytes, body: isJson ? JSON.parse(bytes.toString('utf8')) : undefined };
  }

  async exchangePublicKey(): Promise<string> {
    const health = await this.anon('GET', '/health');
    return health.body.exchange_public_key as string;
  }
}

export function randomContent(size: number): Buffer {
  return randomBytes(size);
}
