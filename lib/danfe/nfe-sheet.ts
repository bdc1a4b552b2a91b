/**
 * The NF-e DANFE sheet: A4 in portrait (tpImp 1) or landscape (tpImp 2, MOC 4.00 B21), with the
 * margins and row heights every block shares. Blocks lay themselves out within `w`, so the same
 * blocks fill either orientation (in landscape the item description column takes the extra width).
 */
export interface Sheet {
  size: [number, number];
  pageW: number;
  pageH: number;
  /** Margin on every side. */
  m: number;
  /** Printable width. */
  w: number;
  /**
   * Rows of duplicatas and of volumes the first sheet holds; the rest go to the additional data.
   * Chosen so the fixed blocks never reach the additional data, even with 120 duplicatas and 5000
   * volumes (XSD maxima): a landscape sheet is 246 pt shorter.
   */
  maxDupRows: number;
  maxVolumeRows: number;
}

const A4_W = 595.28;
const A4_H = 841.89;
const MARGIN = 18;

export const ROW = 20;
export const TITLE_H = 9;
export const HEADER_H = 112;
export const CANHOTO_H = 42;
export const ADIC_H = 78;

export function sheetFor(tpImp: number): Sheet {
  const [pageW, pageH] = tpImp === 2 ? [A4_H, A4_W] : [A4_W, A4_H];
  const landscape = tpImp === 2;
  return { size: [pageW, pageH], pageW, pageH, m: MARGIN, w: pageW - 2 * MARGIN, maxDupRows: landscape ? 2 : 4, maxVolumeRows: landscape ? 1 : 4 };
}
