import { errors } from '@exchange/platform';
import { shoppingRestEndpoint, type UcpProfile, type UcpValidator } from '@exchange/ucp';
import type { UcpProfileJson } from '../domain/ucp-types';
import { boundedFetch, type BoundedFetchOptions } from './ucp-http';
import { profileBaseUrl, restEndpoint, type MerchantDirectory } from './ucp-directory';

// Reading one merchant's business profile (ucp-digest §1): `https://{domain}/.well-known/ucp`, or
// the directory base URL for a mapped domain; no redirects; a bounded body; JSON; valid against the
// UCP business profile schema; with a dev.ucp.shopping REST endpoint (HTTPS unless mapped).

export interface FetchedProfile {
  profile: UcpProfileJson;
  /** The base URL the profile was read from (proto `source_url`). */
  sourceUrl: string;
  /** The shopping REST endpoint to call, rebased onto the directory URL when mapped. */
  endpoint: string;
}

export interface ProfileFetchDeps extends BoundedFetchOptions {
  directory: MerchantDirectory;
  validator: UcpValidator;
}

type ProblemDetail = { pointer: string; message: string };

const unreachable = (domain: string, reason: string, message: string) =>
  errors.failedPrecondition('profile_unreachable', `the profile of ${domain} could not be fetched: ${message}`, { merchant_domain: domain, reason });

const malformed = (domain: string, problems: ProblemDetail[]) =>
  errors.failedPrecondition('profile_malformed', `the profile of ${domain} is not a valid UCP 2026-04-08 business profile`, {
    merchant_domain: domain,
    errors: problems.slice(0, 20),
  });

/** Throws DomainError profile_unreachable (424) or profile_malformed (422). */
export async function fetchMerchantProfile(domain: string, deps: ProfileFetchDeps): Promise<FetchedProfile> {
  const sourceUrl = profileBaseUrl(domain, deps.directory);
  const exchange = await boundedFetch(`${sourceUrl}/.well-known/ucp`, { method: 'GET', headers: { accept: 'application/json' } }, deps);
  if (exchange.kind === 'timeout') throw unreachable(domain, 'timeout', `no answer within ${deps.timeoutMs} ms`);
  if (exchange.kind === 'network') throw unreachable(domain, 'network', exchange.reason);
  if (exchange.status >= 300 && exchange.status < 400) throw unreachable(domain, 'redirect', `HTTP ${exchange.status} (redirects are not followed)`);
  if (exchange.status < 200 || exchange.status >= 300) throw unreachable(domain, `http_${exchange.status}`, `HTTP ${exchange.status}`);
  if (exchange.kind === 'too_large') throw malformed(domain, [{ pointer: '', message: `larger than ${deps.maxBytes} bytes` }]);

  let json: unknown;
  try {
    json = JSON.parse(exchange.text);
  } catch {
    throw malformed(domain, [{ pointer: '', message: 'not JSON' }]);
  }
  const result = deps.validator.validate('business_profile', json);
  if (!result.valid) throw malformed(domain, result.errors);
  const profile = json as UcpProfileJson;
  const advertised = shoppingRestEndpoint(profile as unknown as UcpProfile);
  if (advertised === undefined) throw malformed(domain, [{ pointer: '/ucp/services/dev.ucp.shopping', message: 'no REST binding with an endpoint' }]);
  const mapped = deps.directory.has(domain);
  let url: URL;
  try {
    url = new URL(advertised);
  } catch {
    throw malformed(domain, [{ pointer: '/ucp/services/dev.ucp.shopping', message: 'the REST endpoint is not an absolute URL' }]);
  }
  // The schemas do not check HTTPS (libs/ucp README): a real merchant's endpoint must be HTTPS.
  if (!mapped && url.protocol !== 'https:') throw malformed(domain, [{ pointer: '/ucp/services/dev.ucp.shopping', message: 'the REST endpoint must be https' }]);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw malformed(domain, [{ pointer: '/ucp/services/dev.ucp.shopping', message: 'the REST endpoint must be http(s)' }]);
  return { profile, sourceUrl, endpoint: restEndpoint(advertised, domain, deps.directory) };
}
