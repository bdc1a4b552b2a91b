/**
 * The DANFSe content as titled blocks of labelled fields on a four-column grid, in the block order,
 * titles and fields of the national DANFSe v1.0: the document the Sistema Nacional NFS-e (Portal
 * NFS-e, www.nfse.gov.br; ADN "DANFSe" service) printed for every NFS-e until NT 008/2026 (SE/CGNFS-e)
 * replaced it with v2.0: header "DANFSe v1.0 - Documento Auxiliar da NFS-e"; identification (chave
 * de acesso, NFS-e number, competence and date, DPS number, series and date) beside the QR code
 * of the public consultation; Emitente da NFS-e; Tomador do serviço; Intermediário do serviço;
 * Serviço prestado; Tributação municipal; Tributação federal; Valor total da NFS-e; Totais
 * aproximados dos tributos; Informações complementares. Absent people print the layout's
 * "... NÃO IDENTIFICADO NA NFS-e" line. Both renderers (HTML, PDF) draw exactly this, so they
 * cannot disagree.
 */
import { formatCep, formatCnpjCpf, formatDateTime, formatPhone } from '../danfe/format.js';
import type { DanfsePartyView, DanfseView } from './view-model.js';
import { date, f, type DanfseField, type DanfseSection } from './fields.js';
import { taxSections } from './tax-rows.js';

export type { DanfseField, DanfseSection } from './fields.js';

/** The identification grid beside the QR code: three columns. */
export function identificacao(v: DanfseView): DanfseField[][] {
  return [
    [f('Chave de acesso da NFS-e', v.chaveAcesso, 3)],
    [f('Número da NFS-e', v.numero), f('Competência da NFS-e', date(v.competencia)), f('Data e hora da emissão da NFS-e', formatDateTime(v.dhProc))],
    [f('Número da DPS', v.nDPS), f('Série da DPS', v.serie), f('Data e hora da emissão da DPS', formatDateTime(v.dhEmi))],
  ];
}

export const QR_CAPTION = 'A autenticidade desta NFS-e pode ser verificada pela leitura deste código QR ou pela consulta da chave de acesso no portal nacional da NFS-e';

function personRows(p: DanfsePartyView): DanfseField[][] {
  return [
    [f('CNPJ / CPF / NIF', formatCnpjCpf(p.documento), 2), f('Inscrição municipal', p.im), f('Telefone', formatPhone(p.fone))],
    [f('Nome / Nome empresarial', p.nome, 2), f('E-mail', p.email, 2)],
    [f('Endereço', p.endereco, 2), f('Município', p.municipio), f('CEP', formatCep(p.cep))],
  ];
}

function person(title: string, p: DanfsePartyView | null): DanfseSection {
  return p ? { title, rows: personRows(p) } : { title, rows: [], absent: `${title.toUpperCase()} NÃO IDENTIFICADO NA NFS-e` };
}

export function danfseSections(v: DanfseView): DanfseSection[] {
  const s = v.servico;
  return [
    {
      title: 'Emitente da NFS-e - Prestador do serviço',
      rows: [
        ...personRows(v.emitente),
        [f('Simples Nacional na data de competência', v.emitente.simplesNacional, 2), f('Regime de apuração tributária pelo SN', v.emitente.regimeApuracaoSN, 2)],
      ],
    },
    person('Tomador do serviço', v.tomador),
    person('Intermediário do serviço', v.intermediario),
    {
      title: 'Serviço prestado',
      rows: [
        [
          f('Código de tributação nacional', [s.cTribNac, s.xTribNac].filter(Boolean).join(' - ')),
          f('Código de tributação municipal', [s.cTribMun, s.xTribMun].filter(Boolean).join(' - ')),
          f('Local da prestação', s.localPrestacao), f('País da prestação', s.paisPrestacao),
        ],
        [f('Descrição do serviço', s.descricao, 4)],
      ],
    },
    ...taxSections(v),
  ];
}

/** The diagonal marks across every sheet, as the NF-e DANFE draws them: cancellation and homologation. */
export function danfseMarks(v: DanfseView): { text: string; sub: string | null }[] {
  return [
    ...(v.cancelada ? [{ text: 'CANCELADA', sub: null }] : []),
    ...(v.homologacao ? [{ text: 'SEM VALIDADE JURÍDICA', sub: 'NFS-e EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO' }] : []),
  ];
}
