import test from 'ava';
import { renderErrorIndex, renderErrorPage } from '../../../lib/http/error-pages.js';
import { CATALOG } from '../../../lib/errors/index.js';

test('renderErrorPage states the code, its HTTP status, the cause and the fix from the catalogue', (t) => {
  const page = renderErrorPage('CSC_AUSENTE', { index: '/errors', docs: '/docs' })!;
  t.true(page.includes('<h1><code>CSC_AUSENTE</code></h1>'));
  t.true(page.includes('<dd>422 Unprocessable Entity</dd>'));
  t.true(page.includes(`<dd class="causa">${CATALOG.CSC_AUSENTE.detail}</dd>`));
  t.true(page.includes(`<dd class="correcao">${CATALOG.CSC_AUSENTE.fix}</dd>`));
  t.true(page.includes('href="/errors#CSC_AUSENTE"'));
});

test('renderErrorPage answers undefined for a code outside the catalogue, whatever it looks like', (t) => {
  t.is(renderErrorPage('NAO_EXISTE', { index: '/errors', docs: '/docs' }), undefined);
  t.is(renderErrorPage('toString', { index: '/errors', docs: '/docs' }), undefined);
  t.is(renderErrorPage('<script>', { index: '/errors', docs: '/docs' }), undefined);
});

test('renderErrorIndex has one anchor per catalogued code, each with a fix', (t) => {
  const index = renderErrorIndex({ docs: '/docs' });
  for (const [code, entry] of Object.entries(CATALOG)) {
    t.true(index.includes(`<section id="${code}">`), code);
    t.true(entry.fix.length > 10, code);
  }
});

test('the pages escape text taken from the catalogue', (t) => {
  const page = renderErrorPage('NOT_FOUND', { index: '/e"><script>', docs: '/docs' })!;
  t.false(page.includes('<script>'));
  t.true(page.includes('/e&#34;&#62;&#60;script&#62;'));
});
