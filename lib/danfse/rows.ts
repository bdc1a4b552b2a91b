/**
 * The DANFSe content as titled sections of labelled fields, in the order of the national layout
 * (SN NFS-e, DANFSe v1.0): header with key, number, competence and dates; provider; taker;
 * service; municipal taxation; federal taxation; totals; complementary information. Both renderers
 * (HTML, PDF) draw exactly this, so they cannot disagree.
 */
import { formatCep, formatCnpjCpf, formatDateTime, formatMoney, formatPhone } from '../danfe/format.js';
import type { DanfsePartyView, DanfseView } from './view-model.js';

export interface DanfseField {
  label: string;
  value: string;
  /** Share of the row width (the row's shares add up to 1). */
  width: number;
}

export interface DanfseSection {
  title: string;
  rows: DanfseField[][];
}

const date = (d: string) => (/^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}` : d);
const money = (v: string) => (v ? formatMoney(v) : '-');
const pct = (v: string) => (v ? `${v.replace('.', ',')}%` : '-');

function partyRows(p: DanfsePartyView): DanfseField[][] {
  return [
    [{ label: 'Nome / Nome empresarial', value: p.nome, width: 0.55 }, { label: 'CNPJ / CPF / NIF', value: formatCnpjCpf(p.documento), width: 0.25 }, { label: 'Inscrição municipal', value: p.im || '-', width: 0.2 }],
    [{ label: 'Endereço', value: p.endereco || '-', width: 0.55 }, { label: 'Município', value: p.municipio || '-', width: 0.25 }, { label: 'CEP', value: p.cep ? formatCep(p.cep) : '-', width: 0.2 }],
    [{ label: 'Telefone', value: p.fone ? formatPhone(p.fone) : '-', width: 0.3 }, { label: 'E-mail', value: p.email || '-', width: 0.7 }],
  ];
}

export function danfseSections(v: DanfseView): DanfseSection[] {
  return [
    {
      title: 'Identificação da NFS-e',
      rows: [
        [{ label: 'Chave de acesso da NFS-e', value: v.chaveAcesso, width: 1 }],
        [
          { label: 'Número da NFS-e', value: v.numero, width: 0.2 }, { label: 'Competência da NFS-e', value: date(v.competencia), width: 0.2 },
          { label: 'Data e hora da emissão da NFS-e', value: formatDateTime(v.dhProc), width: 0.3 }, { label: 'Número / série da DPS', value: `${v.nDPS} / ${v.serie}`, width: 0.15 },
          { label: 'Emissão da DPS', value: formatDateTime(v.dhEmi), width: 0.15 },
        ],
      ],
    },
    { title: 'Emitente da NFS-e (prestador do serviço)', rows: partyRows(v.emitente) },
    { title: 'Tomador do serviço', rows: v.tomador ? partyRows(v.tomador) : [[{ label: 'Tomador', value: 'TOMADOR NÃO IDENTIFICADO NA NFS-e', width: 1 }]] },
    {
      title: 'Serviço prestado',
      rows: [
        [{ label: 'Código de tributação nacional', value: [v.servico.cTribNac, v.servico.xTribNac].filter(Boolean).join(' - '), width: 0.7 }, { label: 'Código de tributação municipal', value: v.servico.cTribMun || '-', width: 0.3 }],
        [{ label: 'Código NBS', value: [v.servico.cNBS, v.servico.xNBS].filter(Boolean).join(' - ') || '-', width: 0.7 }, { label: 'Local da prestação', value: v.servico.localPrestacao, width: 0.3 }],
        [{ label: 'Descrição do serviço', value: v.servico.descricao, width: 1 }],
      ],
    },
    {
      title: 'Tributação municipal (ISSQN)',
      rows: [
        [{ label: 'Tributação do ISSQN', value: v.tribMun.tribISSQN, width: 0.3 }, { label: 'Retenção do ISSQN', value: v.tribMun.retencao, width: 0.3 }, { label: 'Município de incidência', value: v.tribMun.localIncidencia || '-', width: 0.4 }],
        [{ label: 'Base de cálculo do ISSQN', value: money(v.tribMun.vBC), width: 0.35 }, { label: 'Alíquota aplicada', value: pct(v.tribMun.pAliq), width: 0.3 }, { label: 'ISSQN apurado', value: money(v.tribMun.vISSQN), width: 0.35 }],
      ],
    },
    {
      title: 'Tributação federal (retenções)',
      rows: [[{ label: 'IRRF', value: money(v.tribFed.irrf), width: 1 / 3 }, { label: 'Contribuição previdenciária retida', value: money(v.tribFed.cp), width: 1 / 3 }, { label: 'CSLL', value: money(v.tribFed.csll), width: 1 / 3 }]],
    },
    {
      title: 'Valor total da NFS-e',
      rows: [[
        { label: 'Valor do serviço', value: money(v.valores.vServ), width: 0.2 }, { label: 'Desconto incondicionado', value: money(v.valores.vDescIncond), width: 0.2 },
        { label: 'Desconto condicionado', value: money(v.valores.vDescCond), width: 0.2 }, { label: 'Total de retenções', value: money(v.valores.vTotalRet), width: 0.2 },
        { label: 'Valor líquido da NFS-e', value: money(v.valores.vLiq), width: 0.2 },
      ]],
    },
    { title: 'Informações complementares', rows: [[{ label: 'Informações complementares', value: v.informacoesComplementares || '-', width: 1 }]] },
  ];
}

/** The marks across the document: homologation and cancellation. */
export function danfseMarks(v: DanfseView): string[] {
  return [...(v.homologacao ? ['NFS-e SEM VALIDADE JURÍDICA (HOMOLOGAÇÃO)'] : []), ...(v.cancelada ? ['CANCELADA'] : [])];
}
