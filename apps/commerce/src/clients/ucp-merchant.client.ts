import { createUcpValidator, negotiate, CHECKOUT_CAPABILITY, type UcpProfile, type UcpValidator } from '@exchange/ucp';
import type { Logger } from '@exchange/platform';
import type { MerchantCall, MerchantCallInput, MerchantPort, MerchantProfileView, RecordedMessage, UcpOperation } from '../domain/merchant.ports';
import { assertMerchantDomain } from '../merchants/merchant-domain';
import type { PlatformIdentity } from '../merchants/platform-identity.model';
import { merchantDomainOfProfileUrl } from './ucp-directory';
import { boundedFetch } from './ucp-http';
import { fetchMerchantProfile } from './ucp-profile-fetch';
import { prepareRequest } from './ucp-request';
import { classifyExchange } from './ucp-response';

export { parseMerchantDirectory } from './ucp-directory';

export interface UcpMerchantClientOptions {
  platform: PlatformIdentity;
  /** MERCHANT_DIRECTORY parsed: domain → base URL (the only way plain http is allowed). */
  directory: ReadonlyMap<string, string>;
  profileTtlMs: number;
  timeoutMs: number;
  clock: () => Date;
  logger: Logger;
  fetch?: typeof fetch;
  /** The service's one UCP validator (its ~79 schemas are compiled once); built here when omitted. */
  validator?: UcpValidator;
  /** Largest profile or response body read (default 256 KiB). */
  maxBodyBytes?: number;
}

/** UCP: a profile is cached at least this long. */
const MIN_PROFILE_TTL_MS = 60_000;
const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/**
 * The exchange's UCP client for merchants (MerchantPort): profiles fetched and validated, cached per
 * domain (one fetch in flight per domain is shared; failures are not cached), and signed checkout
 * calls whose every message comes back for the caller to keep as evidence.
 */
export class UcpMerchantClient implements MerchantPort {
  private readonly cache = new Map<string, MerchantProfileView>();
  private readonly inFlight = new Map<string, Promise<MerchantProfileView>>();
  private readonly validator: UcpValidator;
  private readonly http;
  private readonly ttlMs: number;

  constructor(readonly opts: UcpMerchantClientOptions) {
    this.http = { fetch: opts.fetch ?? fetch, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
    this.ttlMs = Math.max(MIN_PROFILE_TTL_MS, opts.profileTtlMs);
    this.validator = opts.validator ?? createUcpValidator();
  }

  profile(merchantDomain: string, opts: { refresh?: boolean } = {}): Promise<MerchantProfileView> {
    const domain = assertMerchantDomain(merchantDomain);
    const cached = this.cache.get(domain);
    if (!opts.refresh && cached && cached.cacheExpiresAt.getTime() > this.opts.clock().getTime()) return Promise.resolve(cached);
    const pending = this.inFlight.get(domain);
    if (pending) return pending;
    const fetching = this.load(domain).finally(() => this.inFlight.delete(domain));
    this.inFlight.set(domain, fetching);
    return fetching;
  }

  /** The merchant whose profile lives at this URL (a webhook's UCP-Agent), directory included. */
  merchantDomainOf(profileUrl: string): string | undefined {
    return merchantDomainOfProfileUrl(profileUrl, this.opts.directory);
  }

  async call(merchantDomain: string, operation: UcpOperation, input: MerchantCallInput): Promise<MerchantCall> {
    const view = await this.profile(merchantDomain);
    const capabilities = this.negotiatedCapabilities(view);
    const request = await prepareRequest(view.endpoint, operation, input, capabilities, { platform: this.opts.platform, validator: this.validator, clock: this.opts.clock });
    const sent: RecordedMessage = {
      kind: 'merchant_request',
      operation,
      content: { method: request.method, url: request.url, headers: request.headers, body: request.parsedBody ?? null },
      schemaResult: request.schemaResult,
    };
    const exchange = await boundedFetch(request.url, { method: request.method, headers: request.headers, body: request.body }, this.http);
    const { outcome, message } = classifyExchange(exchange, {
      operation,
      method: request.method,
      url: request.url,
      checkoutId: operation === 'create_checkout' ? undefined : input.checkoutId,
      capabilities,
      validator: this.validator,
      maxBytes: this.http.maxBytes,
    });
    if (outcome.kind !== 'checkout' && outcome.kind !== 'business_error') {
      // Never the headers: they carry the signature.
      this.opts.logger.warn({ merchantDomain: view.merchantDomain, operation, outcome: outcome.kind, reason: 'reason' in outcome ? outcome.reason : undefined }, 'merchant call failed');
    }
    return { outcome, messages: [sent, message] };
  }

  private async load(domain: string): Promise<MerchantProfileView> {
    const fetched = await fetchMerchantProfile(domain, { ...this.http, directory: this.opts.directory, validator: this.validator });
    const fetchedAt = this.opts.clock();
    const view: MerchantProfileView = {
      merchantDomain: domain,
      profile: fetched.profile,
      sourceUrl: fetched.sourceUrl,
      endpoint: fetched.endpoint,
      fetchedAt,
      cacheExpiresAt: new Date(fetchedAt.getTime() + this.ttlMs),
    };
    this.cache.set(domain, view);
    return view;
  }

  /**
   * The capability names both sides negotiated (what the merchant's checkout may carry, so what its
   * extensions' schemas check); checkout alone when negotiation finds nothing common.
   */
  private negotiatedCapabilities(view: MerchantProfileView): string[] {
    const result = negotiate(this.opts.platform.profile as unknown as UcpProfile, view.profile as unknown as UcpProfile);
    return result.status === 'ok' ? Object.keys(result.capabilities) : [CHECKOUT_CAPABILITY];
  }
}
