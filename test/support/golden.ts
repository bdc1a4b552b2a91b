import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';

/**
 * Golden images of printed documents (issue 22 item 6): a PDF is rasterized by poppler's pdftoppm
 * (independent of pdfkit) and compared page by page with the committed PNGs in
 * test/fixtures/danfe/ by pixelmatch, with a tolerance for antialiasing differences between
 * poppler builds; a moved or missing block changes far more pixels than that.
 *
 * Regenerate after an intended layout change: `UPDATE_GOLDENS=1 npx ava test/lib/danfe/golden.test.ts`,
 * then look at the images before committing them.
 */
export const GOLDEN_DIR = fileURLToPath(new URL('../fixtures/danfe/', import.meta.url));
export const GOLDEN_DPI = 60;
/** Share of pixels allowed to differ (pixelmatch threshold 0.1 per pixel). */
export const GOLDEN_TOLERANCE = 0.005;
export const updating = process.env.UPDATE_GOLDENS === '1';

/** Every page of the PDF as a PNG, by pdftoppm. */
export function rasterize(pdf: Buffer, dpi = GOLDEN_DPI): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), 'golden-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', join(dir, 'doc.pdf'), join(dir, 'page')]);
    return readdirSync(dir).filter((f) => f.endsWith('.png')).sort().map((f) => readFileSync(join(dir, f)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The symbols zbarimg reads in an image, each as its raw text. */
export function decodeSymbols(png: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'zbar-'));
  try {
    writeFileSync(join(dir, 'img.png'), png);
    // stderr dropped: zbarimg reports a missing D-Bus on headless machines, unrelated to decoding.
    const out = execFileSync('zbarimg', ['-q', '--raw', join(dir, 'img.png')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface PageDiff {
  page: number;
  /** Differing pixels over all pixels; 1 when the sizes differ. */
  ratio: number;
  diffFile: string | null;
}

/** Differing share of pixels between two PNGs; writes a diff image to the temp dir when they differ. */
export function diffPng(actual: Buffer, expected: Buffer, label: string): { ratio: number; diffFile: string | null } {
  const a = PNG.sync.read(actual);
  const e = PNG.sync.read(expected);
  if (a.width !== e.width || a.height !== e.height) return { ratio: 1, diffFile: null };
  const diff = new PNG({ width: a.width, height: a.height });
  const n = pixelmatch(a.data, e.data, diff.data, a.width, a.height, { threshold: 0.1 });
  if (!n) return { ratio: 0, diffFile: null };
  const diffFile = join(tmpdir(), `golden-diff-${label}.png`);
  writeFileSync(diffFile, PNG.sync.write(diff));
  return { ratio: n / (a.width * a.height), diffFile };
}

/**
 * Compares the pages with the goldens `<name>-<page>.png` (or writes them when UPDATE_GOLDENS=1).
 * Returns one entry per page; a page count that differs from the goldens' is a ratio of 1.
 */
export function compareWithGoldens(name: string, pages: Buffer[]): PageDiff[] {
  if (updating) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    for (const f of readdirSync(GOLDEN_DIR)) if (f.startsWith(`${name}-`) && f.endsWith('.png')) rmSync(join(GOLDEN_DIR, f));
    pages.forEach((png, i) => writeFileSync(join(GOLDEN_DIR, `${name}-${i + 1}.png`), png));
  }
  const goldens = readdirSync(GOLDEN_DIR).filter((f) => new RegExp(`^${name}-\\d+\\.png$`).test(f)).length;
  const out: PageDiff[] = [];
  for (let i = 0; i < Math.max(goldens, pages.length); i++) {
    const file = join(GOLDEN_DIR, `${name}-${i + 1}.png`);
    if (!pages[i] || !existsSync(file)) { out.push({ page: i + 1, ratio: 1, diffFile: null }); continue; }
    out.push({ page: i + 1, ...diffPng(pages[i]!, readFileSync(file), `${name}-${i + 1}`) });
  }
  return out;
}
