import test from 'ava';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { checkLogo, checkLogoEmbeddable, logoMime, MAX_LOGO_BYTES } from '../../../lib/issuer/logo.js';
import {
  honestPng, interlacedPng, pngBomb, pngWithBackwardChunk, pngWithGarbageIdat, pngWithOverlongIdat, pngWithSecondHeader,
  pngWithShortData, pngWithUnknownFilter,
} from '../../support/hostile-png.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/logo/${name}`, import.meta.url));
const png = (width: number, height: number): Buffer => {
  const p = new PNG({ width, height });
  p.data.fill(128);
  return PNG.sync.write(p);
};
const refusal = (type: string, data?: Record<string, unknown>) => ({ name: 'DomainError', type, ...(data ? { data } : {}) });

test('checkLogo accepts a PNG and a JPEG, telling them by their magic bytes', (t) => {
  t.deepEqual(checkLogo(fixture('logo.png')), { mime: 'image/png', width: 120, height: 80, bytes: fixture('logo.png').length });
  t.deepEqual(checkLogo(fixture('logo.jpg')), { mime: 'image/jpeg', width: 120, height: 80, bytes: fixture('logo.jpg').length });
});

test('logoMime refuses GIF, SVG and a PNG header cut short', (t) => {
  t.is(logoMime(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')), null);
  t.is(logoMime(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
  t.is(logoMime(fixture('logo.png').subarray(0, 7)), null);
});

test('checkLogo answers LOGO_FORMATO_INVALIDO for a file that is not PNG or JPEG', (t) => {
  t.like(t.throws(() => checkLogo(Buffer.from('GIF89a\x20\x00\x20\x00', 'latin1'))), refusal('LOGO_FORMATO_INVALIDO'));
});

test('checkLogo answers LOGO_FORMATO_INVALIDO for a PNG signature over garbage', (t) => {
  t.like(t.throws(() => checkLogo(Buffer.concat([fixture('logo.png').subarray(0, 8), Buffer.from('not an image at all')]))), refusal('LOGO_FORMATO_INVALIDO'));
});

test('checkLogo answers LOGO_GRANDE_DEMAIS above 256 KB, before reading the image', (t) => {
  const big = Buffer.concat([fixture('logo.png'), Buffer.alloc(MAX_LOGO_BYTES)]);
  t.like(t.throws(() => checkLogo(big)), { ...refusal('LOGO_GRANDE_DEMAIS', { bytes: big.length, max: MAX_LOGO_BYTES }), code: 422 });
});

test('checkLogo answers LOGO_DIMENSOES_INVALIDAS below 32 px and above 2000 px', (t) => {
  t.like(t.throws(() => checkLogo(png(16, 64))), refusal('LOGO_DIMENSOES_INVALIDAS', { width: 16, height: 64, min: 32, max: 2000 }));
  t.like(t.throws(() => checkLogo(png(2100, 40))), refusal('LOGO_DIMENSOES_INVALIDAS', { width: 2100, height: 40, min: 32, max: 2000 }));
  t.notThrows(() => checkLogo(png(32, 2000)));
});

test('checkLogoEmbeddable accepts the fixtures and refuses a PNG whose image data is cut', async (t) => {
  await t.notThrowsAsync(checkLogoEmbeddable(fixture('logo.png')));
  await t.notThrowsAsync(checkLogoEmbeddable(fixture('logo.jpg')));
  const cut = fixture('logo.png').subarray(0, 60);
  t.like(t.throws(() => checkLogo(cut)), refusal('LOGO_FORMATO_INVALIDO')); // the structure check sees the cut first
  const err = await t.throwsAsync(checkLogoEmbeddable(cut));
  t.like(err, refusal('LOGO_FORMATO_INVALIDO'));
});

test('checkLogo answers LOGO_FORMATO_INVALIDO, in milliseconds, for PNGs that lie to the decoder', (t) => {
  t.deepEqual(checkLogo(honestPng()), { mime: 'image/png', width: 64, height: 64, bytes: honestPng().length });
  const lies: [string, Buffer][] = [
    ['a chunk length with the high bit set (an endless loop in png-js)', pngWithBackwardChunk()],
    ['an IDAT declaring 200 MB in a short file', pngWithOverlongIdat()],
    ['an IDAT that is not zlib (uncaught in png-js)', pngWithGarbageIdat()],
    ['a second IHDR of 40000 × 40000', pngWithSecondHeader()],
    ['a scanline with filter type 9 (uncaught in png-js)', pngWithUnknownFilter()],
    ['250 MB deflated under 256 KB', pngBomb()],
    ['fewer rows than the header declares', pngWithShortData()],
  ];
  for (const [name, bytes] of lies) {
    const started = performance.now();
    t.like(t.throws(() => checkLogo(bytes), undefined, name), { ...refusal('LOGO_FORMATO_INVALIDO'), code: 422 }, name);
    t.true(performance.now() - started < 500, name);
  }
});

test('checkLogo accepts every legal PNG depth, colour type and interlacing', async (t) => {
  for (const [colorType, bitDepth] of [[0, 8], [0, 16], [2, 8], [2, 16], [4, 8], [6, 8], [6, 16]] as const) {
    const p = new PNG({ width: 33, height: 47, colorType, bitDepth, inputHasAlpha: true });
    p.data.fill(77);
    t.notThrows(() => checkLogo(PNG.sync.write(p, { colorType, bitDepth, inputHasAlpha: true })), `colour type ${colorType}, ${bitDepth} bits`);
  }
  t.notThrows(() => checkLogo(fixture('logo.png')));
  t.notThrows(() => checkLogo(interlacedPng()));
  await t.notThrowsAsync(checkLogoEmbeddable(interlacedPng()));
});
