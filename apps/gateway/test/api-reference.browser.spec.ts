import { describeWithExecutable } from '@exchange/testing';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { startHarness, type Harness } from './harness';

// /api-reference renders in headless Chromium with no external network (DESIGN §8): every
// request the page makes is intercepted and any non-loopback URL fails the test.

const CHROMIUM = '/usr/bin/chromium';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

describeWithExecutable('GET /api-reference in headless Chromium', CHROMIUM, 'apt-get install -y chromium', () => {
  let h: Harness;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('should list every tag and render its operations from local assets only', async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    const local: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
      if (!LOOPBACK.has(url.hostname)) {
        external.push(url.href);
        return route.abort();
      }
      local.push(url.pathname);
      return route.continue();
    });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    const response = await page.goto(`${baseUrl}/api-reference`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    // Tags start collapsed (docExpansion 'none'): every tag of the document is listed…
    const doc = (await (await fetch(`${baseUrl}/api-reference/json`)).json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const docTags = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));
    await page.waitForSelector('.opblock-tag-section', { timeout: 20_000 });
    const shownTags = await page.$$eval('.opblock-tag', (nodes) => nodes.map((n) => n.getAttribute('data-tag') ?? ''));
    expect(new Set(shownTags)).toEqual(docTags);
    // …and opening one shows its operations.
    for (const tag of ['Agents', 'Health']) await page.click(`.opblock-tag[data-tag="${tag}"]`);
    await page.waitForSelector('.opblock-summary-path[data-path="/health"]', { timeout: 20_000 });
    const paths = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((n) => n.getAttribute('data-path') ?? n.textContent ?? ''));
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v1/agents',
        '/v1/agents/{agent_id}',
        '/v1/agents/{agent_id}/identity_level',
        '/v1/agents/{agent_id}/identity_transitions',
        '/v1/agents/{agent_id}/keys/{pubkey}/revoke',
        '/v1/agents/{agent_id}/freeze',
        '/v1/agents/{agent_id}/unfreeze',
        '/health',
      ]),
    );
    const title = await page.textContent('.info .title');
    expect(title).toContain('Agent Exchange API');
    expect(await page.$('.errors-wrapper')).toBeNull();
    expect(external).toEqual([]);
    expect(errors).toEqual([]);
    expect(local).toEqual(expect.arrayContaining(['/api-reference/static/swagger-ui-bundle.js', '/api-reference/json']));
    await page.close();
  }, 60_000);
});
