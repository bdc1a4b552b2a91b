import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDanfseView } from '../../../lib/danfse/view-model.js';
import { renderDanfsePdf } from '../../../lib/danfse/pdf.js';
import { fullNfse, realNfse } from '../../support/danfse-notes.js';
import { compareWithGoldens, decodeSymbols, diffPng, GOLDEN_DIR, GOLDEN_TOLERANCE, rasterize, updating } from '../../support/golden.js';

/**
 * DANFSe golden images, as the NF-e DANFE's (test/lib/danfe/golden.test.ts): fixed NFS-e rendered to
 * PDF, rasterized by pdftoppm and compared with test/fixtures/danfe/danfse-*.png
 * (UPDATE_GOLDENS=1 rewrites them; look at them before committing).
 */
const CASES: [string, () => Promise<Buffer>][] = [
  ['danfse-real', async () => renderDanfsePdf(buildDanfseView(realNfse()))],
  ['danfse-completa', async () => renderDanfsePdf(buildDanfseView(fullNfse()))],
  ['danfse-cancelada', async () => renderDanfsePdf(buildDanfseView(realNfse(), { cancelada: true }))],
];

for (const [name, render] of CASES) {
  test(`golden ${name}: one sheet within ${GOLDEN_TOLERANCE * 100}% of its committed image`, async (t) => {
    const diffs = compareWithGoldens(name, rasterize(await render()));
    t.is(diffs.length, 1);
    for (const d of diffs) t.true(d.ratio <= GOLDEN_TOLERANCE, `${name} page ${d.page}: ${(d.ratio * 100).toFixed(2)}% of the pixels differ${d.diffFile ? ` (diff: ${d.diffFile})` : ''}`);
  });
}

test('the comparison fails a layout change: without the intermediary every block below it moves up', async (t) => {
  if (updating) return t.pass();
  const v = buildDanfseView(fullNfse());
  const page = rasterize(await renderDanfsePdf({ ...v, intermediario: null }))[0]!;
  const { ratio } = diffPng(page, readFileSync(join(GOLDEN_DIR, 'danfse-completa-1.png')), 'danfse-negative-control');
  t.true(ratio > GOLDEN_TOLERANCE * 4, `${(ratio * 100).toFixed(2)}%`);
});

test('the cancelled mark is what tells the cancelled DANFSe from the authorized one', async (t) => {
  if (updating) return t.pass();
  const page = rasterize(await renderDanfsePdf(buildDanfseView(realNfse(), { cancelada: true })))[0]!;
  const { ratio } = diffPng(page, readFileSync(join(GOLDEN_DIR, 'danfse-real-1.png')), 'danfse-cancelada-vs-real');
  t.true(ratio > GOLDEN_TOLERANCE * 4, `${(ratio * 100).toFixed(2)}%`);
});

test('the DANFSe QR code decodes (zbarimg) to the public consultation of the NFS-e by its access key', async (t) => {
  for (const v of [buildDanfseView(fullNfse()), buildDanfseView(realNfse(), { cancelada: true })]) {
    const page = rasterize(await renderDanfsePdf(v), 200)[0]!;
    t.deepEqual(decodeSymbols(page), [`https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=${v.chaveAcesso}`]);
  }
});
