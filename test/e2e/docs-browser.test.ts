import test from 'ava';
import { chromium, type Browser } from 'playwright-core';
import { startStack, type Stack } from '../support/stack.js';
import { CATALOG } from '../../lib/errors/index.js';

/**
 * Issue 21, item 5, in a real browser: Debian's chromium (CHROMIUM_PATH, default /usr/bin/chromium;
 * bin/check-test-env.ts requires it) renders /docs from the product alone (Redoc from node_modules)
 * and an error's type URI opens the page that explains it.
 */
let stack: Stack;
let browser: Browser;
test.before(async () => {
  stack = await startStack({ env: { ERRORS_BASE: 'http://api.test/errors' } });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
});
test.after.always(async () => {
  await browser?.close();
  await stack?.stop();
});

test('/docs renders the operation list from the served document, with nothing fetched from outside the product', async (t) => {
  const page = await browser.newPage();
  const outside: string[] = [];
  // An answer from outside would mean the page depends on a network it may not have (the docs
  // page's Content-Security-Policy keeps Redoc's CDN logo from being fetched at all).
  page.on('response', (r) => { if (!r.url().startsWith(stack.url) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) outside.push(r.url()); });
  await page.goto(`${stack.url}/docs`);
  // Redoc renders each operation as a section headed by its summary (the side menu folds them by tag).
  const heading = (summary: string) => page.locator('h2', { hasText: summary }).first();
  await heading('Emite NF-e (modelo 55)').waitFor({ state: 'visible', timeout: 60_000 });
  t.true(await heading('Consulta cadastral de CNPJ').isVisible());
  t.true(await page.getByText('Emite NF-e (modelo 55)').count() >= 2); // the heading and its menu entry
  t.deepEqual(outside, []);
  await page.close();
});

test('an error type URI opens the page with the code, its cause and the fix', async (t) => {
  const refused = await stack.request('GET', '/v1/auth/me');
  t.is(refused.status, 401);
  t.is(refused.body.error.type, 'http://api.test/errors/UNAUTHORIZED');
  const page = await browser.newPage();
  await page.goto(`${stack.url}${new URL(refused.body.error.type).pathname}`);
  t.is(await page.locator('h1 code').innerText(), 'UNAUTHORIZED');
  t.is(await page.locator('dd.causa').innerText(), CATALOG.UNAUTHORIZED.detail);
  t.is(await page.locator('dd.correcao').innerText(), CATALOG.UNAUTHORIZED.fix);
  // The catalogue page keeps one anchor per code.
  await page.goto(`${stack.url}/errors#REJEICAO_FISCAL`);
  t.is(await page.locator('#REJEICAO_FISCAL dd.correcao').innerText(), CATALOG.REJEICAO_FISCAL.fix);
  await page.close();
});
