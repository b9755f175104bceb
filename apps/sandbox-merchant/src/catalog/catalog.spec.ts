import { buildCatalog, tokenOutcome } from './catalog';
import { loadCatalog } from './catalog.repo';
import { parseCsv } from './csv';

const seed = {
  products: 'id,title,price,image_url\nrose,Rose,300,\npot,Pot,1500,https://example.com/pot.jpg\n',
  inventory: 'product_id,quantity\nrose,5\npot,0\n',
  discounts: 'code,type,value,description\nten,percentage,10,10% Off\n',
  sandboxDiscounts: 'code,type,value,description,expires_at\nOLD,fixed_amount,100,Old,2020-01-01T00:00:00Z\n',
};

describe('csv', () => {
  it('reads a header and rows, skipping blank lines', () => {
    expect(parseCsv('a,b\r\n1,2\n\n3,4\n')).toEqual([{ a: '1', b: '2' }, { a: '3', b: '4' }]);
  });
  it('refuses quoted fields and ragged rows', () => {
    expect(() => parseCsv('a,b\n"x,y",2\n')).toThrow(/quoted/);
    expect(() => parseCsv('a,b\n1\n')).toThrow(/1 fields, expected 2/);
  });
});

describe('catalog', () => {
  it('builds products, stock and upper-cased discount codes with expiry', () => {
    const catalog = buildCatalog(seed);
    expect(catalog.product('rose')).toEqual({ id: 'rose', title: 'Rose', price: 300 });
    expect(catalog.product('pot')?.image_url).toBe('https://example.com/pot.jpg');
    expect(catalog.available('pot')).toBe(0);
    expect(catalog.available('unknown')).toBe(0);
    expect(catalog.discount('Ten')).toMatchObject({ code: 'TEN', type: 'percentage', value: 10 });
    expect(catalog.discount('old')?.expiresAt).toBe(Date.parse('2020-01-01T00:00:00Z'));
  });

  it('reserves all lines or none, and releases them', () => {
    const catalog = buildCatalog(seed);
    expect(catalog.reserve([{ itemId: 'rose', quantity: 3 }, { itemId: 'rose', quantity: 3 }])).toBe(false);
    expect(catalog.available('rose')).toBe(5);
    expect(catalog.reserve([{ itemId: 'rose', quantity: 5 }])).toBe(true);
    expect(catalog.available('rose')).toBe(0);
    catalog.release([{ itemId: 'rose', quantity: 2 }]);
    expect(catalog.available('rose')).toBe(2);
  });

  it('rejects a bad price or discount', () => {
    expect(() => buildCatalog({ ...seed, products: 'id,title,price,image_url\nx,X,-1,\n' })).toThrow(/price of x/);
    expect(() => buildCatalog({ ...seed, discounts: 'code,type,value,description\nX,bogo,1,X\n' })).toThrow(/discount type/);
    expect(() => buildCatalog({ ...seed, discounts: 'code,type,value,description\nX,percentage,101,X\n' })).toThrow(/over 100/);
  });

  it('maps credential tokens to outcomes', () => {
    expect(tokenOutcome('success_token')).toBe('success');
    expect(tokenOutcome('pending_token')).toBe('pending');
    expect(tokenOutcome('fail_token')).toBe('fail');
    expect(tokenOutcome(undefined)).toBe('fail');
  });

  it('loads the vendored flower-shop seed', () => {
    const catalog = loadCatalog();
    expect(catalog.products.size).toBe(6);
    expect(catalog.available('gardenias')).toBe(0);
    expect(catalog.discount('spring2020')?.expiresAt).toBeDefined();
    expect(() => loadCatalog('/nonexistent')).toThrow(/not found/);
  });
});
