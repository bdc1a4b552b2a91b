/**
 * The lower blocks of the DANFSe v1.0 (see ./rows.ts for the layout and its source): Tributação
 * municipal (ISSQN), Tributação federal, Valor total da NFS-e, Totais aproximados dos tributos
 * and Informações complementares.
 */
import type { DanfseView } from './view-model.js';
import { f, money, pct, type DanfseSection } from './fields.js';

function aproximados(t: DanfseView['totTrib']): DanfseSection['rows'] {
  const as = t.tipo === 'percentual' ? pct : money;
  if (t.tipo === 'simples') return [[f('Percentual aproximado dos tributos do Simples Nacional', pct(t.simples), 4)]];
  return [[f('Federais', t.tipo === 'nenhum' ? '' : as(t.federais)), f('Estaduais', t.tipo === 'nenhum' ? '' : as(t.estaduais), 2), f('Municipais', t.tipo === 'nenhum' ? '' : as(t.municipais))]];
}

export function taxSections(v: DanfseView): DanfseSection[] {
  const m = v.tribMun;
  const fed = v.tribFed;
  const t = v.valores;
  return [
    {
      title: 'Tributação municipal',
      rows: [
        [f('Tributação do ISSQN', m.tribISSQN), f('País resultado da prestação do serviço', m.paisResultado), f('Município de incidência do ISSQN', m.municipioIncidencia), f('Regime especial de tributação', m.regimeEspecial)],
        [f('Tipo de imunidade', m.tipoImunidade), f('Suspensão da exigibilidade do ISSQN', m.suspensao), f('Número do processo de suspensão', m.processoSuspensao), f('Benefício municipal', m.beneficioMunicipal)],
        [f('Valor do serviço', money(m.vServ)), f('Desconto incondicionado', money(m.vDescIncond)), f('Total deduções/reduções', money(m.vDeducoes)), f('Cálculo do BM', money(m.vCalcBM))],
        [f('BC ISSQN', money(m.vBC)), f('Alíquota aplicada', pct(m.pAliq)), f('Retenção do ISSQN', m.retencao), f('ISSQN apurado', money(m.vISSQN))],
      ],
    },
    {
      title: 'Tributação federal',
      rows: [
        [f('IRRF', money(fed.irrf)), f('Contribuição previdenciária - retida', money(fed.cp)), f('Contribuições sociais - retidas', money(fed.contribSociais)), f('Descrição contrib. sociais - retidas', fed.descricaoContribSociais)],
        [f('PIS - débito apuração própria', money(fed.pisProprio), 2), f('COFINS - débito apuração própria', money(fed.cofinsProprio), 2)],
      ],
    },
    {
      title: 'Valor total da NFS-e',
      rows: [
        [f('Valor do serviço', money(t.vServ)), f('Desconto condicionado', money(t.vDescCond)), f('Desconto incondicionado', money(t.vDescIncond)), f('ISSQN retido', money(t.issqnRetido))],
        [f('Total das retenções federais', money(t.retencoesFederais)), f('PIS/COFINS - débito apur. própria', money(t.pisCofinsProprio), 2), f('Valor líquido da NFS-e', money(t.vLiq))],
      ],
    },
    { title: 'Totais aproximados dos tributos', rows: aproximados(v.totTrib) },
    { title: 'Informações complementares', rows: [[f('', v.informacoesComplementares, 4)]] },
  ];
}
