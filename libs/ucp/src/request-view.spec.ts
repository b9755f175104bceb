import { resolveView } from './request-view';

const schema = {
  type: 'object',
  required: ['id', 'name', 'total'],
  properties: {
    id: { type: 'string', ucp_request: { create: 'omit', update: 'required' } },
    name: { type: 'string', ucp_request: 'optional' },
    total: { type: 'integer', ucp_request: 'omit' },
    note: { type: 'string', ucp_request: 'required' },
    token: { type: 'string', ucp_response: 'omit' },
    plain: { type: 'string' },
    nested: {
      type: 'array',
      items: { allOf: [{ type: 'object', required: ['x'], properties: { x: { type: 'string', ucp_request: { update: 'omit' } } } }] },
    },
  },
};

describe('resolveView (ucp_request / ucp_response annotations)', () => {
  it('create: omit drops the field and its requirement, required adds one, optional removes one', () => {
    const view = resolveView(schema, { direction: 'request', operation: 'create' });
    expect(Object.keys(view.properties)).toEqual(['name', 'note', 'token', 'plain', 'nested']);
    expect(view.required).toEqual(['note']);
    expect(view.properties.name).toEqual({ type: 'string' });
    // The other direction's annotation is kept (it means nothing in a request view).
    expect(view.properties.token).toEqual({ type: 'string', ucp_response: 'omit' });
  });

  it('an operation named only by the object form keeps the field as written elsewhere', () => {
    const update = resolveView(schema, { direction: 'request', operation: 'update' });
    expect(update.required).toEqual(['id', 'note']);
    expect(update.properties.nested.items.allOf[0]).toEqual({ type: 'object', required: [], properties: {} });
    const complete = resolveView(schema, { direction: 'request', operation: 'complete' });
    expect(complete.required).toEqual(['id', 'note']);
    expect(complete.properties.nested.items.allOf[0].required).toEqual(['x']);
  });

  it('response: only ucp_response counts', () => {
    const view = resolveView(schema, { direction: 'response', operation: 'read' });
    expect(Object.keys(view.properties)).toEqual(['id', 'name', 'total', 'note', 'plain', 'nested']);
    expect(view.required).toEqual(['id', 'name', 'total']);
    expect(view.properties.id).toEqual({ type: 'string', ucp_request: { create: 'omit', update: 'required' } });
  });

  it('does not modify its input', () => {
    const copy = JSON.parse(JSON.stringify(schema));
    resolveView(schema, { direction: 'request', operation: 'create' });
    expect(schema).toEqual(copy);
  });

  it('rejects an unknown visibility', () => {
    const bad = { properties: { a: { ucp_request: 'hidden' } } };
    expect(() => resolveView(bad, { direction: 'request', operation: 'create' })).toThrow('invalid ucp_request annotation at /properties/a: "hidden"');
  });
});
