import { checkNfse } from '../../lib/nfse/check.js';
import type { CheckedNfse, NfseIssuer } from '../../lib/nfse/types.js';
import { validateNfseBody } from '../../lib/nfse/validate.js';
import type { DpsContext } from '../../lib/nfse/xml/context.js';
import { aValidNfseBody, anNfseIssuer } from './nfse-factories.js';

export const MES_ATUAL = '2026-11';

export interface NfseScenario {
  name: string;
  body: any;
  issuer: NfseIssuer;
  nDPS?: number;
}

const servico = aValidNfseBody().servico;
const tomador = aValidNfseBody().tomador;

/** Varied DPS for the golden tests: regimes, retentions, takers, the IBS/CBS group, assisted taxation. */
export function nfseScenarios(): NfseScenario[] {
  return [
    { name: 'simples-me-epp-ptottribsn', body: aValidNfseBody(), issuer: anNfseIssuer() },
    {
      name: 'lucro-presumido-retencoes-inss-irrf-csll',
      issuer: anNfseIssuer({ crt: 3 }),
      body: aValidNfseBody({
        dpsNacional: { opSimpNac: 1, cTribNac: '170101', cTribMun: '002', tribISSQN: 1, cstPisCofins: '01', tpRetPisCofins: 3 },
        servico: { ...servico, valorServicos: 25000, aliquotaIss: 5, descontoIncondicionado: 100, descontoCondicionado: 50.5, valorDeducoes: 1000, codigoMunicipio: '3304557' },
        retencoes: { inss: 2750, irrf: 375, csll: 250, pis: 0, cofins: 0 },
      }),
    },
    {
      name: 'iss-retido-pelo-tomador',
      issuer: anNfseIssuer({ crt: 3 }),
      body: aValidNfseBody({
        dpsNacional: { opSimpNac: 1, cTribNac: '070201', tribISSQN: 1 },
        servico: { ...servico, codigoTributacaoMunicipio: '010', aliquotaIss: 3 },
        retencoes: { issRetidoPor: 2 },
      }),
    },
    {
      name: 'com-grupo-ibscbs',
      issuer: anNfseIssuer(),
      body: aValidNfseBody({
        ibsCbs: {
          cst: '200', cClassTrib: '200052', cCredPres: '01', cIndOp: '100301', finNFSe: 0, indDest: 0, indFinal: 1, tpEnteGov: 2, tpOper: 1,
          gDif: { pDifUF: 10, pDifMun: 0, pDifCBS: 12.5 }, gTribRegular: { cstReg: '000', cClassTribReg: '000001' },
        },
      }),
    },
    {
      name: 'tomador-cpf-com-im-e-complemento',
      issuer: anNfseIssuer(),
      body: aValidNfseBody({
        tomador: { cnpjCpf: '52998224725', razaoSocial: 'JOSÉ DA SILVA ÇÃO', inscricaoMunicipal: '99887', endereco: { ...tomador.endereco, complemento: 'APTO 12' } },
      }),
    },
    { name: 'sem-tomador', issuer: anNfseIssuer(), body: aValidNfseBody({ tomador: undefined }) },
    {
      name: 'mei-sem-ptottribsn',
      issuer: anNfseIssuer({ crt: 4 }),
      body: aValidNfseBody({ dpsNacional: { opSimpNac: 2, cTribNac: '010101', tribISSQN: 1 }, servico: { valorServicos: 0.01, discriminacao: 'Manutencao' } }),
    },
    {
      name: 'crt2-regime-de-apuracao-3',
      issuer: anNfseIssuer({ crt: 2 }),
      body: aValidNfseBody({ dpsNacional: { opSimpNac: 3, regApTribSN: 3, regEspTrib: 6, cTribNac: '010101', tribISSQN: 1, pTotTribSN: 0 } }),
    },
    {
      name: 'texto-com-escape-e-acentos',
      issuer: anNfseIssuer(),
      body: aValidNfseBody({
        servico: { ...servico, discriminacao: 'Consultoria & suporte <nível 2> "24x7"\nLinha 2: ação, pão, ü' },
        informacoesComplementares: 'Contrato nº 12 & aditivo <A>',
      }),
    },
    {
      name: 'tributacao-assistida-do-cadastro',
      issuer: anNfseIssuer({ cTribNacPadrao: '010701', tribIssqnPadrao: 1, codigoNbsPadrao: '115013000', pTotTribSNPadrao: 8.5, pTotTribSNCompetencia: '2026-09', indDestPadrao: 0 }),
      body: aValidNfseBody({
        dpsNacional: undefined, resolverTributacao: true, servico: { valorServicos: 980, discriminacao: 'Suporte tecnico' },
        ibsCbs: { cst: '000', cClassTrib: '000001', cIndOp: '100301' },
      }),
    },
    {
      name: 'serie-e-numero-maximos',
      issuer: anNfseIssuer(),
      nDPS: 999999999999999,
      body: aValidNfseBody({ serie: 99999, competencia: '2026-10-31', servico: { ...servico, valorServicos: 999999999999999 } }),
    },
    {
      name: 'imunidade-sem-aliquota',
      issuer: anNfseIssuer({ crt: 3 }),
      body: aValidNfseBody({ dpsNacional: { opSimpNac: 1, cTribNac: '080101', tribISSQN: 2, tpRetISSQN: 1 }, servico: { valorServicos: 300, discriminacao: 'Aula' } }),
    },
  ];
}

export function checked(s: NfseScenario): CheckedNfse {
  return checkNfse(validateNfseBody(s.body), s.issuer, { mesAtual: MES_ATUAL });
}

export function aDpsContext(issuer: NfseIssuer, nDPS = 1): DpsContext {
  return { issuer, nDPS, dhEmi: '2026-11-22T17:40:00-03:00', tpAmb: 2, verAplic: 'fiscal-api 2.1.0' };
}
