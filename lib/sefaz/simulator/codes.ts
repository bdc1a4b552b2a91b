import { cstatText } from '../cstat.js';

/**
 * Every cStat the simulator answers on its own (issue 19: each one is in data/sefaz/cstat.json
 * with the authority's verbatim text; test/lib/sefaz/simulator/codes.test.ts fails otherwise).
 * Rejections on demand (trigger.ts) may answer any other rejection of the table.
 */
export const SIMULATOR_CSTATS = [
  100, 101, 102, 103, 104, 106, 107, 108, 109, 128, 135, 150, 155,
  204, 206, 208, 209, 210, 213, 214, 215, 217, 218, 220, 222, 224, 225, 226, 228, 236, 237, 241, 252, 256,
  270, 271, 272, 273, 274, 275, 289, 290, 291, 292, 293, 295, 297, 298,
  404, 493, 494, 501, 502, 539, 556, 557, 558, 570, 572, 573, 574, 577, 578, 580, 694, 695, 696, 697, 698, 699, 703, 704, 711, 713, 783, 798, 799, 800, 972,
] as const;

export type SimulatorCStat = (typeof SIMULATOR_CSTATS)[number];

export interface Motivo { cStat: number; xMotivo: string }

export const motivo = (cStat: SimulatorCStat): Motivo => ({ cStat, xMotivo: cstatText(cStat) });

/** The simulator's environment (tpAmb): homologation, always. Never echoed from a request. */
export const SIMULATOR_TP_AMB = '2';
