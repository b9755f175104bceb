import { ConfigError } from '@exchange/platform';
import { isMerchantDomain } from '../merchants/merchant-domain';

// MERCHANT_DIRECTORY: merchant domain → base URL, the only way a merchant is reached over plain
// http (tests, the sandbox merchant). A mapped domain's profile is read from
// `<base>/.well-known/ucp` and its REST calls go to `<base>` (see `restEndpoint`).

export type MerchantDirectory = ReadonlyMap<string, string>;

const VARIABLE = 'MERCHANT_DIRECTORY';

/** MERCHANT_DIRECTORY JSON → map (base URLs without trailing slash). Throws ConfigError naming the variable. */
export function parseMerchantDirectory(json: string): MerchantDirectory {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ConfigError(VARIABLE, 'is not JSON (expected {"<merchant domain>": "<base URL>"})');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(VARIABLE, 'must be a JSON object {"<merchant domain>": "<base URL>"}');
  const directory = new Map<string, string>();
  for (const [domain, base] of Object.entries(value)) {
    if (!isMerchantDomain(domain)) throw new ConfigError(VARIABLE, `key ${JSON.stringify(domain.slice(0, 100))} is not a lower-case merchant domain`);
    if (typeof base !== 'string') throw new ConfigError(VARIABLE, `value of ${domain} must be a URL string`);
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      throw new ConfigError(VARIABLE, `value of ${domain} is not a URL`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
      throw new ConfigError(VARIABLE, `value of ${domain} must be an http(s) base URL without query, fragment or credentials`);
    }
    directory.set(domain, `${url.origin}${url.pathname}`.replace(/\/+$/, ''));
  }
  return directory;
}

/** Where a merchant's profile is read: its directory base URL, else https://{domain}. */
export function profileBaseUrl(domain: string, directory: MerchantDirectory): string {
  return directory.get(domain) ?? `https://${domain}`;
}

/**
 * The REST endpoint to call. A directory-mapped merchant may advertise another host than the one it
 * is reached at (the sandbox merchant advertises its PUBLIC_URL, which need not resolve here): then
 * the endpoint's path is kept and its origin replaced by the directory URL's origin.
 */
export function restEndpoint(advertised: string, domain: string, directory: MerchantDirectory): string {
  const base = directory.get(domain);
  if (base === undefined) return advertised;
  const endpoint = new URL(advertised);
  const mapped = new URL(base);
  if (endpoint.host === mapped.host && endpoint.protocol === mapped.protocol) return advertised;
  return `${mapped.origin}${endpoint.pathname}`.replace(/\/+$/, '');
}

/**
 * The merchant whose profile is at `profileUrl` (a webhook's UCP-Agent), or undefined. A directory
 * entry whose base URL (or domain) the URL is under wins; otherwise the URL must be
 * `https://{domain}/.well-known/ucp` exactly.
 */
export function merchantDomainOfProfileUrl(profileUrl: string, directory: MerchantDirectory): string | undefined {
  let url: URL;
  try {
    url = new URL(profileUrl);
  } catch {
    return undefined;
  }
  if (url.search || url.hash || url.username || url.password) return undefined;
  const where = `${url.origin}${url.pathname}`;
  for (const [domain, base] of directory) if (where === `${base}/.well-known/ucp`) return domain;
  if (url.protocol !== 'https:' || url.port !== '' || url.pathname !== '/.well-known/ucp') return undefined;
  return isMerchantDomain(url.hostname) ? url.hostname : undefined;
}
