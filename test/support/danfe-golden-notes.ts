import { aNfe, anIssuer, anItem, round2 } from './checked-note-factories.js';
import { authorizedProc, signedNote } from './danfe-notes.js';
import type { CheckedItem } from '../../lib/nfe/types.js';
import { readSample } from './samples.js';

/**
 * The fixed notes of the DANFE golden images (issue 22 item 6) and of the DANFE layout tests:
 * every value, date and number is fixed, so the same note renders the same PDF on any run.
 */

/** One item, homologation, authorized. */
export function oneItemProc(): string {
  return authorizedProc(signedNote(aNfe([anItem({ nItem: 1 })])));
}

/** An item of ICMS 00 with FCP (2 %) and an optional discount. */
function fcpItem(i: number, desconto?: number): CheckedItem {
  const base = anItem({
    codigo: `P${String(i).padStart(3, '0')}`,
    descricao: i % 9 === 0 ? `Produto ${i} com descricao longa que ocupa mais de uma linha na coluna de descricao do DANFE` : `Produto ${i}`,
    quantidade: 1 + (i % 3), valorUnitario: 10 + i,
  });
  const vProd = Number(base.valorTotalCents) / 100;
  return {
    ...base,
    ...(desconto ? { desconto } : {}),
    icms: { ...base.icms, pFCP: 2, vFCP: round2(vProd * 0.02) },
  };
}

/**
 * DIFAL totals (ICMSTot W04c-W04e) put into a note's XML: the computation belongs to the DIFAL
 * branch (issue 22 item 2); the DANFE only prints what the XML carries.
 */
export function withDifalTotals(xml: string, t: { vFCPUFDest: string; vICMSUFDest: string; vICMSUFRemet: string }): string {
  return xml.replace(/(<ICMSTot>[\s\S]*?<vICMSDeson>[^<]*<\/vICMSDeson>)/,
    `$1<vFCPUFDest>${t.vFCPUFDest}</vFCPUFDest><vICMSUFDest>${t.vICMSUFDest}</vICMSUFDest><vICMSUFRemet>${t.vICMSUFRemet}</vICMSUFRemet>`);
}

/** 45 items over two sheets, discounts on every fifth item, FCP, DIFAL, two volumes and a fatura with 3 duplicatas. */
export function fullProc(): string {
  const items = Array.from({ length: 45 }, (_, k) => fcpItem(k + 1, (k + 1) % 5 === 0 ? 1.5 : undefined));
  const note = aNfe(items, {
    transporte: {
      modFrete: 1,
      transportador: { cnpjCpf: '11222333000181', nome: 'TRANSPORTADORA EXEMPLO LTDA', ie: '111222333444', endereco: 'Rod. Anhanguera, km 10', municipio: 'Campinas', uf: 'SP' },
      veiculo: { placa: 'ABC1D23', uf: 'SP' },
      volumes: [
        { quantidade: 3, especie: 'CAIXA', marca: 'LOJA TESTE', numeracao: '1-3', pesoLiquido: 12.5, pesoBruto: 13.25 },
        { quantidade: 2, especie: 'PALETE', marca: 'LOJA TESTE', numeracao: '4-5', pesoLiquido: 100.125, pesoBruto: 110 },
      ],
    },
    cobranca: {
      fatura: { numero: 'FAT-1234', valorOriginal: 300, valorDesconto: 0, valorLiquido: 300 },
      duplicatas: [
        { numero: '001', vencimento: '2026-12-22', valor: 100 },
        { numero: '002', vencimento: '2027-01-21', valor: 100 },
        { numero: '003', vencimento: '2027-02-20', valor: 100 },
      ],
    },
    informacoesComplementares: 'Pedido 98765. Entrega em horario comercial.',
  });
  return withDifalTotals(authorizedProc(signedNote(note)), { vFCPUFDest: '12.34', vICMSUFDest: '56.78', vICMSUFRemet: '0.00' });
}

/** One item, production, canceled (print with `{ cancelada: true }`). */
export function canceledProc(): string {
  return authorizedProc(signedNote(aNfe([anItem({ nItem: 1 })]), { issuer: anIssuer({ ambienteFiscal: 1 }), tpAmb: 1 }), 1);
}

/** One item issued in SVC-AN contingency (tpEmis 6) and authorized there. */
export function contingencyProc(): string {
  return authorizedProc(signedNote(aNfe([anItem({ nItem: 1 })]), { tpEmis: 6 }));
}

/**
 * A registered CC-e (procEventoNFe) of one of these notes: the real DF sample (test/fixtures/samples/
 * events) with the note's key, issuer CNPJ, environment and dates. Its signature no longer verifies;
 * the DACCe never checks it (the API prints only events it registered itself).
 */
export function cceProcFor(noteXml: string, correcao = 'Placa do veiculo transportador: ABC1D23. Volumes numerados de 1 a 3.'): string {
  const key = /Id="NFe(\d{44})"/.exec(noteXml)![1]!;
  const cnpj = /<emit><CNPJ>(\d{14})<\/CNPJ>/.exec(noteXml)![1]!;
  return readSample('events/procEventoNFe_CCe_110110_DF_prod_53181011028793000173550010000066701204276800.xml')
    .replaceAll('53181011028793000173550010000066701204276800', key)
    .replaceAll('<CNPJ>11028793000173</CNPJ>', `<CNPJ>${cnpj}</CNPJ>`)
    .replaceAll('<tpAmb>1</tpAmb>', '<tpAmb>2</tpAmb>')
    .replaceAll('<cOrgao>53</cOrgao>', `<cOrgao>${key.slice(0, 2)}</cOrgao>`)
    .replace('2018-10-05T17:34:36-03:00', '2026-11-23T09:15:00-03:00')
    .replace('2018-10-05T17:34:57-03:00', '2026-11-23T09:15:02-03:00')
    .replace(/<xCorrecao>[^<]*<\/xCorrecao>/, `<xCorrecao>${correcao}</xCorrecao>`);
}
