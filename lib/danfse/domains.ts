/**
 * The code tables the DANFSe prints as words, with the texts of the enumerations' own
 * documentation in the official schema (tiposSimples_v1.01.xsd / tiposComplexos_v1.01.xsd of the
 * Sistema Nacional NFS-e), shortened only where the schema explains instead of naming.
 */
type Table = Readonly<Record<string, string>>;

/** opSimpNac (TSOpSimpNac): "Simples Nacional na data de competência". */
export const OP_SIMP_NAC: Table = {
  1: 'Não optante',
  2: 'Optante - Microempreendedor Individual (MEI)',
  3: 'Optante - Microempresa ou Empresa de Pequeno Porte (ME/EPP)',
};

/** regApTribSN (TSRegimeApuracaoSimpNac). */
export const REG_AP_TRIB_SN: Table = {
  1: 'Tributos federais e municipal pelo SN',
  2: 'Tributos federais pelo SN e ISSQN por fora do SN, conforme a legislação municipal',
  3: 'Tributos federais e municipal por fora do SN, conforme as legislações federal e municipal',
};

/** regEspTrib (TSRegEspTrib); 0 (nenhum) prints as "Nenhum". */
export const REG_ESP_TRIB: Table = {
  0: 'Nenhum', 1: 'Ato Cooperado (Cooperativa)', 2: 'Estimativa', 3: 'Microempresa Municipal', 4: 'Notário ou Registrador',
  5: 'Profissional Autônomo', 6: 'Sociedade de Profissionais', 9: 'Outros',
};

/** tribISSQN (TSTribISSQN). */
export const TRIB_ISSQN: Table = { 1: 'Operação tributável', 2: 'Imunidade', 3: 'Exportação de serviço', 4: 'Não incidência' };

/** tpImunidade (TSTipoImunidadeISSQN), by its constitutional provision. */
export const TP_IMUNIDADE: Table = {
  0: 'Imunidade (tipo não informado na nota de origem)',
  1: 'Patrimônio, renda ou serviços, uns dos outros (CF88, art. 150, VI, a)',
  2: 'Templos de qualquer culto (CF88, art. 150, VI, b)',
  3: 'Partidos políticos, sindicatos de trabalhadores, educação e assistência social sem fins lucrativos (CF88, art. 150, VI, c)',
  4: 'Livros, jornais, periódicos e o papel destinado a sua impressão (CF88, art. 150, VI, d)',
  5: 'Fonogramas e videofonogramas musicais produzidos no Brasil (CF88, art. 150, VI, e)',
};

/** exigSusp/tpSusp (TSOpExigSuspensa). */
export const TP_SUSP: Table = { 1: 'Suspensa por decisão judicial', 2: 'Suspensa por processo administrativo' };

/** tpRetISSQN (TSTipoRetISSQN). */
export const TP_RET_ISSQN: Table = { 1: 'Não retido', 2: 'Retido pelo tomador', 3: 'Retido pelo intermediário' };

/** tpRetPisCofins (TSTipoRetPISCofins): what "Contribuições sociais - retidas" (vRetCSLL) holds. */
export const TP_RET_PIS_COFINS: Table = {
  0: 'PIS/COFINS/CSLL não retidos', 1: 'PIS/COFINS retidos', 2: 'PIS/COFINS não retidos', 3: 'PIS/COFINS/CSLL retidos',
  4: 'PIS/COFINS retidos, CSLL não retido', 5: 'PIS retido, COFINS/CSLL não retidos', 6: 'COFINS retido, PIS/CSLL não retidos',
  7: 'PIS não retido, COFINS/CSLL retidos', 8: 'PIS/COFINS não retidos, CSLL retido', 9: 'COFINS não retido, PIS/CSLL retidos',
};

/** Codes of tpRetPisCofins under which PIS (resp. COFINS) is withheld, so not a debit of the provider's own calculation. */
export const PIS_RETIDO = new Set(['1', '3', '4', '5', '9']);
export const COFINS_RETIDO = new Set(['1', '3', '4', '6', '7']);

/** tpBM (TCValoresNFSe): the kind of municipal benefit applied. */
export const TP_BM: Table = { 1: 'Isenção', 2: 'Redução da BC em percentual', 3: 'Redução da BC em valor', 4: 'Alíquota diferenciada' };
