// The market catalog: contract templates (a contract created with `templateId` inherits their
// defaults), work-product templates, fixtures (registry objects of type `fixture`) and the
// sellers who pass them.
import { MarketBase } from './market-base';
import { paginate, type Page, type PageParams } from './pagination';
import { pathSegment } from './transport';
import type { api, Narrow } from './wire';

// The document states these as strings (and `spec`/`payload_schema` as any JSON); the market
// writes only these values and JSON objects.
export type FixtureType = 'unit_tests' | 'golden_output' | 'schema_validation' | 'reference_dataset' | 'benchmark' | 'property_tests';
export type EvidenceTier = 'self_reported' | 'verifier_checked' | 'reproducible' | 'attested';
export type DeterminismClass = 'deterministic' | 'bounded' | 'nondeterministic';

/** `default_deadline`: ISO 8601 duration, deadline = creation + this. */
export type ContractTemplate = api.ContractTemplate;
/** `payload_schema`: JSON Schema (draft 2020-12) of the result payload. */
export type WorkProductTemplate = Narrow<api.WorkProductTemplate, { payload_schema: Record<string, unknown> }>;
/** `object_id`: the registry object it came from. */
export type Fixture = Narrow<
  api.Fixture,
  { type: FixtureType; evidence_tier: EvidenceTier; determinism_class: DeterminismClass; spec: Record<string, unknown> }
>;
export type FixtureSeller = api.FixtureSeller;

export interface ListTemplatesParams extends PageParams {
  tag?: string;
}

export interface ListFixturesParams extends PageParams {
  fixtureId?: string;
  type?: FixtureType;
  evidenceTier?: EvidenceTier;
  determinismClass?: DeterminismClass;
}

export class TemplatesApi extends MarketBase {
  /** GET /v1/contract-templates, by template_id ascending. */
  contracts(params: ListTemplatesParams = {}): Promise<Page<ContractTemplate>> {
    return this.read('/v1/contract-templates', { limit: params.limit, cursor: params.cursor, tag: params.tag });
  }

  /** Every contract template, page after page. */
  iterateContracts(params: Omit<ListTemplatesParams, 'cursor'> = {}): AsyncGenerator<ContractTemplate, void, undefined> {
    return paginate((cursor) => this.contracts({ ...params, cursor }));
  }

  getContract(templateId: string): Promise<ContractTemplate> {
    return this.read(`/v1/contract-templates/${pathSegment(templateId)}`);
  }

  /** GET /v1/work-product-templates. */
  workProducts(params: ListTemplatesParams = {}): Promise<Page<WorkProductTemplate>> {
    return this.read('/v1/work-product-templates', { limit: params.limit, cursor: params.cursor, tag: params.tag });
  }

  getWorkProduct(templateId: string): Promise<WorkProductTemplate> {
    return this.read(`/v1/work-product-templates/${pathSegment(templateId)}`);
  }
}

const fixtureQuery = (p: ListFixturesParams) => ({
  limit: p.limit,
  cursor: p.cursor,
  fixture_id: p.fixtureId,
  type: p.type,
  evidence_tier: p.evidenceTier,
  determinism_class: p.determinismClass,
});

export class FixturesApi extends MarketBase {
  /** GET /v1/fixtures, newest first. Create fixtures with `client.objects` (type `fixture`). */
  list(params: ListFixturesParams = {}): Promise<Page<Fixture>> {
    return this.read('/v1/fixtures', fixtureQuery(params));
  }

  /** GET /v1/fixtures/sellers: sellers ranked by passed verifications on fixture contracts. */
  sellers(params: ListFixturesParams = {}): Promise<Page<FixtureSeller>> {
    return this.read('/v1/fixtures/sellers', fixtureQuery(params));
  }
}
