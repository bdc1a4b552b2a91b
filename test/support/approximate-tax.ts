import type { ApproximateTaxRate } from '../../lib/approximate-tax/rate.js';

/**
 * Approximate-tax rate lines for tests. The rates are made up for the tests (source "TESTE"), in
 * the shape of the IBPT table; no published rate is reproduced here.
 */
export function aRate(over: Partial<ApproximateTaxRate> = {}): ApproximateTaxRate {
  return {
    uf: 'SP', ncm: '96081000', ex: '', descricao: 'Canetas esferográficas',
    nacionalFederal: 130000n, importadosFederal: 170000n, estadual: 180000n, municipal: 0n,
    vigenciaInicio: '2026-11-01', vigenciaFim: '2026-12-31', versao: '99.9.T', chave: 'TESTE1', fonte: 'TESTE',
    ...over,
  };
}

export function ratesByNcm(...rates: ApproximateTaxRate[]): Map<string, ApproximateTaxRate> {
  return new Map(rates.map((r) => [r.ncm, r]));
}

/** A small table file in the IBPT layout, with made-up rates (UF comes from the file name). */
export const TEST_TABLE_FILE = 'TabelaIBPTaxSP99.9.T.csv';
export const TEST_TABLE_CSV = [
  'codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;municipal;vigenciainicio;vigenciafim;chave;versao;fonte',
  '96081000;;0;"Canetas esferográficas; com ponta";13.00;17.00;18.00;0.00;01/11/2026;31/12/2026;TESTE1;99.9.T;TESTE',
  '96081000;01;0;Canetas de luxo;15.00;19.00;18.00;0.00;01/11/2026;31/12/2026;TESTE1;99.9.T;TESTE',
  '61091000;;0;Camisetas de algodão;13,45;18,61;18,00;0,00;01/11/2026;31/12/2026;TESTE1;99.9.T;TESTE',
  '27101259;;0;Gasolina;10.00;12.00;25.00;0.00;01/11/2026;31/12/2026;TESTE1;99.9.T;TESTE',
  '1.07;;2;Suporte técnico;13.45;15.45;0.00;2.00;01/11/2026;31/12/2026;TESTE1;99.9.T;TESTE',
  '',
].join('\r\n');

const br = (d: Date) => `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;

/**
 * TEST_TABLE_CSV with its validity moved to surround `now` (tests through HTTP emit with the real
 * clock): from 30 days before to 60 days after, or the range given.
 */
export function testTableCsv(opts: { now?: Date; from?: Date; to?: Date; versao?: string } = {}): string {
  const now = opts.now ?? new Date();
  const from = br(opts.from ?? new Date(now.getTime() - 30 * 86_400_000));
  const to = br(opts.to ?? new Date(now.getTime() + 60 * 86_400_000));
  return TEST_TABLE_CSV.replaceAll('01/11/2026', from).replaceAll('31/12/2026', to).replaceAll('99.9.T', opts.versao ?? '99.9.T');
}

export const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
