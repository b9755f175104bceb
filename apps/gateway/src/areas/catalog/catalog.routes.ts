import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ContractTemplate,
  ContractTemplatePage,
  FixturePage,
  FixtureSellerPage,
  ListFixturesQuery,
  ListTemplatesQuery,
  TemplateParams,
  WorkProductTemplate,
  WorkProductTemplatePage,
} from './catalog.schemas';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, READ_ERRORS, SECURITY } from '../../lib/route-kit';
import { contractTemplateToJson, fixtureSellerToJson, fixtureToJson, workProductTemplateToJson } from './catalog.mapper';

// The market catalog (issue 6 §3, §5) over MarketCatalogService: seeded contract and
// work-product templates, the fixtures index and the sellers who pass fixtures. Read-only;
// registered with prefix /v1.

const TAGS = ['Catalog'];

const catalogRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { catalog } = fastify;

  fastify.get(
    '/contract-templates',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listContractTemplates',
        summary: 'List contract templates',
        description:
          'The seeded catalog, by template_id ascending; filter `tag`; cursor pagination. A contract created with `template_id` ' +
          'inherits the template’s tags, acceptance criteria, verification mode, description, suggested budget and deadline ' +
          '(now + `default_deadline`) where it leaves them out.',
        security: SECURITY.operator_or_agent,
        querystring: ListTemplatesQuery,
        response: { 200: ContractTemplatePage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await catalog.listContractTemplates({ page: pageFromQuery(q), tag: q.tag }, request.auth.callOptions);
      return { data: res.templates.map(contractTemplateToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/contract-templates/:template_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getContractTemplate',
        summary: 'Read a contract template',
        description: 'Errors: 404 `contract_template_not_found`.',
        security: SECURITY.operator_or_agent,
        params: TemplateParams,
        response: { 200: ContractTemplate, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await catalog.getContractTemplate({ templateId: request.params.template_id }, request.auth.callOptions);
      return contractTemplateToJson(res.template);
    },
  );

  fastify.get(
    '/work-product-templates',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listWorkProductTemplates',
        summary: 'List work-product templates',
        description: 'What results should look like (payload JSON Schema, required artifacts), by template_id ascending; filter `tag`.',
        security: SECURITY.operator_or_agent,
        querystring: ListTemplatesQuery,
        response: { 200: WorkProductTemplatePage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await catalog.listWorkProductTemplates({ page: pageFromQuery(q), tag: q.tag }, request.auth.callOptions);
      return { data: res.templates.map(workProductTemplateToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/work-product-templates/:template_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getWorkProductTemplate',
        summary: 'Read a work-product template',
        description: 'Errors: 404 `work_product_template_not_found`.',
        security: SECURITY.operator_or_agent,
        params: TemplateParams,
        response: { 200: WorkProductTemplate, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await catalog.getWorkProductTemplate({ templateId: request.params.template_id }, request.auth.callOptions);
      return workProductTemplateToJson(res.template);
    },
  );

  const FILTERS_NOTE =
    'Filters `fixture_id`, `type` (unit_tests, golden_output, schema_validation, reference_dataset, benchmark, property_tests), ' +
    '`evidence_tier` (self_reported, verifier_checked, reproducible, attested), `determinism_class` (deterministic, bounded, ' +
    'nondeterministic); another value is 400 `validation_failed`.';

  fastify.get(
    '/fixtures',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listFixtures',
        summary: 'List fixtures',
        description:
          'Registry objects of type `fixture` (created with POST /v1/objects), indexed by the market from the registry’s events ' +
          '(shortly after they are stored), newest first. ' +
          FILTERS_NOTE,
        security: SECURITY.operator_or_agent,
        querystring: ListFixturesQuery,
        response: { 200: FixturePage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await catalog.listFixtures(
        { page: pageFromQuery(q), fixtureId: q.fixture_id, type: q.type, evidenceTier: q.evidence_tier, determinismClass: q.determinism_class },
        request.auth.callOptions,
      );
      return { data: res.fixtures.map(fixtureToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/fixtures/sellers',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listFixtureSellers',
        summary: 'Rank sellers by passed verifications on fixture contracts',
        description:
          'Sellers of contracts that named a fixture (matching the filters), ranked by passed verifications, then the latest pass, ' +
          'then seller_id. ' +
          FILTERS_NOTE,
        security: SECURITY.operator_or_agent,
        querystring: ListFixturesQuery,
        response: { 200: FixtureSellerPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await catalog.listFixtureSellers(
        { page: pageFromQuery(q), fixtureId: q.fixture_id, type: q.type, evidenceTier: q.evidence_tier, determinismClass: q.determinism_class },
        request.auth.callOptions,
      );
      return { data: res.sellers.map(fixtureSellerToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );
};

export default catalogRoutes;
