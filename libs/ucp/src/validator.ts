import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { resolveView, type UcpOperation } from './request-view';
import { schemaFiles } from './schema-files';
import { toValidationErrors, type UcpValidationResult } from './validation-errors';

export const UCP_SCHEMA_IDS = {
  profile: 'https://ucp.dev/schemas/discovery/profile.json',
  checkout: 'https://ucp.dev/schemas/shopping/checkout.json',
  errorResponse: 'https://ucp.dev/schemas/shopping/types/error_response.json',
  order: 'https://ucp.dev/schemas/shopping/order.json',
} as const;

/** Which view of the annotated schemas a message is checked against (see request-view.ts). */
export type UcpView = 'response' | Exclude<UcpOperation, 'read'>;

const CHECKOUT_NAME = 'dev.ucp.shopping.checkout';

/** Named entry points: the messages the exchange sends or receives, each with its schema and view. */
const named = {
  /** Either kind of `/.well-known/ucp` profile (the schema's own anyOf). */
  profile: { view: 'response', ref: UCP_SCHEMA_IDS.profile },
  business_profile: { view: 'response', ref: `${UCP_SCHEMA_IDS.profile}#/$defs/business_profile` },
  platform_profile: { view: 'response', ref: `${UCP_SCHEMA_IDS.profile}#/$defs/platform_profile` },
  checkout_create_request: { view: 'create', ref: UCP_SCHEMA_IDS.checkout },
  checkout_update_request: { view: 'update', ref: UCP_SCHEMA_IDS.checkout },
  checkout_complete_request: { view: 'complete', ref: UCP_SCHEMA_IDS.checkout },
  /** Every checkout operation answers `oneOf [checkout, error_response]` (REST OpenAPI). */
  checkout_response: { view: 'response', ref: null },
  checkout: { view: 'response', ref: UCP_SCHEMA_IDS.checkout },
  error_response: { view: 'response', ref: UCP_SCHEMA_IDS.errorResponse },
  /** Order entity: the body of an order webhook. */
  order: { view: 'response', ref: UCP_SCHEMA_IDS.order },
} as const satisfies Record<string, { view: UcpView; ref: string | null }>;

export type UcpSchemaName = keyof typeof named;
export type CheckoutMessage = 'create_request' | 'update_request' | 'complete_request' | 'response';

const checkoutMessageView: Record<CheckoutMessage, UcpView> = {
  create_request: 'create',
  update_request: 'update',
  complete_request: 'complete',
  response: 'response',
};

export interface UcpValidator {
  /**
   * Validate against a named entry point, or any vendored schema by `$id` (optionally with a
   * `#/$defs/…` fragment; checked in the response view). Throws on an unknown name or `$id`.
   */
  validate(schema: UcpSchemaName | string, value: unknown): UcpValidationResult;
  /**
   * Validate a checkout message of a negotiated session: the base checkout composed with each
   * active extension's `$defs["dev.ucp.shopping.checkout"]` (discount, fulfillment, buyer_consent,
   * ap2_mandate). Capability names with no checkout composition (checkout itself, order, vendor
   * extensions we have no schema for) add nothing.
   */
  validateCheckout(message: CheckoutMessage, value: unknown, capabilities?: Iterable<string>): UcpValidationResult;
  /** `$id` of every vendored schema. */
  readonly schemaIds: readonly string[];
}

// Non-standard keywords of the UCP schemas: annotations, registered so strict mode still rejects typos.
const annotationKeywords = ['name', 'ucp_request', 'ucp_response', 'ucp_shared_request', 'embedded'];

// The profile schema's refs are relative to its upstream file path (`../schemas/ucp.json`), which
// resolves to a non-existent `$id`; upstream fixed it after the release by moving the file.
function fixProfileRefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).split('"../schemas/').join('"../'));
}

const loadedSchemas = schemaFiles.map(({ path, schema }) => (path.startsWith('discovery/') ? fixProfileRefs(schema) : schema) as { $id: string; name?: string; $defs?: Record<string, unknown> });

function newAjv(view: UcpView): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    // The schemas put `required` and `type` in different allOf branches (for example the entity
    // base requires `id` that a sibling declares); both patterns are valid 2020-12.
    strictRequired: false,
    strictTypes: false,
  });
  addFormats(ajv);
  for (const keyword of annotationKeywords) ajv.addKeyword({ keyword });
  const options = view === 'response' ? { direction: 'response' as const, operation: 'read' as const } : { direction: 'request' as const, operation: view };
  for (const schema of loadedSchemas) ajv.addSchema(resolveView(schema, options));
  return ajv;
}

function isErrorResponse(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'id' in value) return false;
  const ucp = (value as { ucp?: unknown }).ucp;
  return typeof ucp === 'object' && ucp !== null && (ucp as { status?: unknown }).status === 'error';
}

function run(validate: ValidateFunction, value: unknown): UcpValidationResult {
  return validate(value) ? { valid: true } : { valid: false, errors: toValidationErrors(validate.errors) };
}

/** A validator over every vendored UCP 2026-04-08 schema. Compiles lazily; keep one per process. */
export function createUcpValidator(): UcpValidator {
  const ajvs = new Map<UcpView, Ajv2020>();
  const compiled = new Map<string, ValidateFunction>();
  const ids = new Set(loadedSchemas.map((s) => s.$id));
  const checkoutExtension = new Map<string, string>();
  for (const schema of loadedSchemas) {
    if (schema.name && schema.name !== CHECKOUT_NAME && schema.$defs?.[CHECKOUT_NAME]) checkoutExtension.set(schema.name, schema.$id);
  }

  const ajvFor = (view: UcpView): Ajv2020 => {
    let ajv = ajvs.get(view);
    if (!ajv) ajvs.set(view, (ajv = newAjv(view)));
    return ajv;
  };
  const compile = (view: UcpView, key: string, schema: () => object): ValidateFunction => {
    const cacheKey = `${view} ${key}`;
    let fn = compiled.get(cacheKey);
    if (!fn) compiled.set(cacheKey, (fn = ajvFor(view).compile(schema())));
    return fn;
  };
  const byRef = (view: UcpView, ref: string): ValidateFunction => {
    if (!ids.has(ref.split('#')[0] ?? '')) throw new Error(`unknown UCP schema: ${ref}`);
    return compile(view, ref, () => ({ $ref: ref }));
  };
  const checkoutFn = (view: UcpView, capabilities: Iterable<string>): ValidateFunction => {
    const extensionIds = [...new Set([...capabilities].map((c) => checkoutExtension.get(c)).filter((id): id is string => id !== undefined))].sort();
    if (extensionIds.length === 0) return byRef(view, UCP_SCHEMA_IDS.checkout);
    return compile(view, `checkout+${extensionIds.join('+')}`, () => ({ allOf: extensionIds.map((id) => ({ $ref: `${id}#/$defs/${CHECKOUT_NAME}` })) }));
  };

  const validateCheckout = (message: CheckoutMessage, value: unknown, capabilities: Iterable<string> = []): UcpValidationResult => {
    const view = checkoutMessageView[message];
    // Same verdict as the OpenAPI's oneOf (the two branches are disjoint: error_response forbids
    // `id`, checkout requires it), but the errors name the branch the sender meant.
    if (message === 'response' && isErrorResponse(value)) return run(byRef(view, UCP_SCHEMA_IDS.errorResponse), value);
    return run(checkoutFn(view, capabilities), value);
  };

  return {
    schemaIds: [...ids],
    validateCheckout,
    validate(schema, value) {
      if (Object.prototype.hasOwnProperty.call(named, schema)) {
        const entry = named[schema as UcpSchemaName];
        if (entry.ref === null) return validateCheckout('response', value);
        return run(byRef(entry.view, entry.ref), value);
      }
      return run(byRef('response', schema), value);
    },
  };
}
