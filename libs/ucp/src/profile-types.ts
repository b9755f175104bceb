/**
 * The parts of a UCP discovery profile (`/.well-known/ucp`) this library reads. Validate a fetched
 * profile with `createUcpValidator().validate('business_profile', …)` first; these types describe
 * a valid one and keep every other field (`[key: string]: unknown`).
 */

/** A version constraint of an extension's `requires` (inclusive bounds, YYYY-MM-DD). */
export interface UcpVersionConstraint {
  min: string;
  max?: string;
}

export interface UcpRequires {
  protocol?: UcpVersionConstraint;
  capabilities?: Record<string, UcpVersionConstraint>;
}

export interface UcpEntity {
  version: string;
  spec?: string;
  schema?: string;
  id?: string;
  config?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface UcpCapabilityEntry extends UcpEntity {
  /** Parent capability (or parents: an extension is kept while at least one is negotiated). */
  extends?: string | string[];
  requires?: UcpRequires;
}

export interface UcpServiceEntry extends UcpEntity {
  transport: 'rest' | 'mcp' | 'a2a' | 'embedded';
  endpoint?: string;
}

export interface UcpPaymentHandlerEntry extends UcpEntity {
  id: string;
  available_instruments?: Array<{ type: string; constraints?: Record<string, unknown> }>;
}

export interface UcpSigningKey {
  kid: string;
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  use?: 'sig' | 'enc';
  alg?: string;
  [key: string]: unknown;
}

export interface UcpProfile {
  ucp: {
    version: string;
    /** Business only: older protocol versions → URI of that version's (leaf) profile. */
    supported_versions?: Record<string, string>;
    services?: Record<string, UcpServiceEntry[]>;
    capabilities?: Record<string, UcpCapabilityEntry[]>;
    payment_handlers?: Record<string, UcpPaymentHandlerEntry[]>;
    [key: string]: unknown;
  };
  signing_keys?: UcpSigningKey[];
  [key: string]: unknown;
}
