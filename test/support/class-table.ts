import { indexTable, type CorrelationIndex } from '../../lib/classification/correlation.js';
import type { AnnexItem, ClassTable, ClassTrib } from '../../lib/classification/types.js';
import { defaultTable } from '../../services/classification/default-tables.js';

/** The version shipped in data/classification, indexed once per test process. */
let shipped: CorrelationIndex | undefined;
export function shippedIndex(): CorrelationIndex {
  shipped ??= indexTable(defaultTable());
  return shipped;
}

/** A class of the cClassTrib table with defaults for the fields a test does not care about. */
export function aClass(over: Partial<ClassTrib> & Pick<ClassTrib, 'cClassTrib'>): ClassTrib {
  return {
    cst: over.cClassTrib.slice(0, 3), nome: `Classe ${over.cClassTrib}`, artigo: 'Art. 1', anexo: null, pRedIBS: 0, pRedCBS: 0,
    indNFe: true, indNFCe: true, grupos: [], vigenciaInicio: '2026-01-01', vigenciaFim: null, ...over,
  };
}

/** A small table: 000001, a 60 % class of annex VII, a 100 % class of annex I admitted only in the NF-e. */
export function aSmallTable(anexos: AnnexItem[] = [
  { anexo: 'I', item: '1', descricao: 'Arroz', incluidos: ['100630'], excecoes: [] },
  { anexo: 'VII', item: '1', descricao: 'Crustáceos', incluidos: ['0306'], excecoes: ['030611', '03061500'] },
]): ClassTable {
  return {
    versao: 'teste',
    classes: [
      aClass({ cClassTrib: '000001' }),
      aClass({ cClassTrib: '200003', anexo: 'I', pRedIBS: 1_000_000, pRedCBS: 1_000_000, indNFCe: false }),
      aClass({ cClassTrib: '200034', anexo: 'VII', pRedIBS: 600_000, pRedCBS: 600_000 }),
      aClass({ cClassTrib: '515001', anexo: 'VII', pRedIBS: 600_000, pRedCBS: 600_000 }),
    ],
    csts: [{ cst: '000', descricao: 'Integral', grupos: ['gIBSCBS'] }, { cst: '200', descricao: 'Reduzida', grupos: ['gIBSCBS', 'gRed'] }, { cst: '515', descricao: 'Diferimento', grupos: ['gIBSCBS', 'gRed', 'gDif'] }],
    anexos,
    aliquotas: [{ ano: 2026, cbs: 9_000, ibsUf: 1_000, ibsMun: 0, fonte: 'teste' }],
  };
}
