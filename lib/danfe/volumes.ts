/**
 * The DANFE's "Volumes transportados" lines: every `vol` group of the note (X26, 0-5000 of them),
 * and, when there is more than one, a total line. Only the additive fields are summed (qVol,
 * pesoL, pesoB: MOC 4.00 Anexo II, quadro Transportador/Volumes, lets the DANFE total the groups);
 * espécie, marca and numeração describe one group and are never merged. Decimal strings in,
 * decimal strings out, exact (no floats): qVol is an integer, the weights have up to 3 decimals.
 */
import type { DanfeVolume } from './view-model.js';

export interface VolumeLines {
  /** One line per vol group, in XML order. */
  lines: DanfeVolume[];
  /** Sum of the groups, or null with zero or one group (nothing to add). */
  total: DanfeVolume | null;
}

/** Sums decimal strings scaled to `frac` digits; an empty field adds nothing; "" when every field is empty. */
function sum(values: readonly string[], frac: number): string {
  const present = values.filter((v) => v !== '');
  if (!present.length) return '';
  let acc = 0n;
  for (const v of present) {
    const m = /^(\d+)(?:\.(\d+))?$/.exec(v);
    if (!m || (m[2] ?? '').length > frac) throw new RangeError(`volume value ${v} is not a decimal with at most ${frac} places`);
    acc += BigInt(m[1]! + (m[2] ?? '').padEnd(frac, '0'));
  }
  if (frac === 0) return acc.toString();
  const digits = acc.toString().padStart(frac + 1, '0');
  return `${digits.slice(0, -frac)}.${digits.slice(-frac)}`;
}

export function volumeLines(volumes: readonly DanfeVolume[]): VolumeLines {
  if (volumes.length < 2) return { lines: [...volumes], total: null };
  return {
    lines: [...volumes],
    total: {
      quantidade: sum(volumes.map((v) => v.quantidade), 0),
      especie: 'TOTAL', marca: '', numeracao: '',
      pesoBruto: sum(volumes.map((v) => v.pesoBruto), 3),
      pesoLiquido: sum(volumes.map((v) => v.pesoLiquido), 3),
    },
  };
}
