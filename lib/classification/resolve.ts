import type { ErrorCode } from '../errors/index.js';
import { admittedIn, candidatesOf, candidateView, unfilledGroups, validOn, type CorrelationIndex } from './correlation.js';
import { CST_WITHOUT_GROUP } from '../nfe/xml/det-ibscbs.js';
import { reusableClass } from './memory.js';
import { isSale } from './operation.js';
import { classRates, ratesOfYear, toPercent, ZERO_RATES, type ClassRates } from './rates.js';
import type { Candidate, ClassTrib, GoodsModel, Pct4, ProductClass } from './types.js';

/**
 * Assisted taxation of one note's goods (API.md, emission rule 9; issue 17 item 3): for each item,
 * the IBS/CBS class and its rates, from what the item sent, the product class memory and the NCM
 * correlation. Pure: the classification service gives it the table index and the stored classes.
 *
 * Per item, by what the request sent in `ibsCbs`:
 * - nothing: a sale (lib/classification/operation.ts) gets the stored class of its `codigo` when
 *   that class is still a candidate of the NCM and admitted in the model, else the NCM's single
 *   admitted candidate; several → NCM_MULTICLASSE with `candidatas`; none → NCM_SEM_CLASSE_AUTOMATICA.
 * - a `cClassTrib` alone (hint): that class, if it is a candidate of the NCM
 *   (CCLASSTRIB_INVALIDO_PARA_NCM) and admitted in the model (CCLASSTRIB_INADMISSIVEL_NO_MODELO).
 * - the complete group: kept as sent; a sent class is checked like a hint, and the sent CST and
 *   reductions must mirror the class (ESPELHO_FISCAL_DIVERGENTE): a partner's group that
 *   contradicts the table is refused rather than emitted under assisted taxation.
 * A hint with a `cst` that is not its class's CST is the same divergence.
 *
 * An operation that is not a sale has its class from the operation (410001 bonificação, 410002
 * transferência, 410004 exportação…), not from the NCM: a sent class tied to no LC 214 annex
 * (ANEXO empty) is then accepted without being a candidate of the NCM, if in force and admitted
 * in the model. Such a class describes the operation, not the product, so it is not recorded in
 * the product class memory.
 *
 * Whatever the path, a class is emitted only if the builder writes every group it demands
 * (correlation.ts unfilledGroups: the cClassTrib table's `ind_g*` flags and the CST's groups),
 * else CCLASSTRIB_EXIGE_GRUPO: an item without gCredPresOper, gTribRegular or gEstornoCred would
 * be an incomplete document, so none is filled in by guess. A class of CST 400/410 (no gIBSCBS)
 * gets zero rates: nothing is due on an exempt or immune operation.
 */
export type SentIbsCbs =
  | { kind: 'none' }
  | { kind: 'hint'; cClassTrib: string; cst?: string }
  | { kind: 'complete'; cClassTrib?: string; cst?: string; pRedAliq: SentRates; nominal: SentRates };

/** Per rate object of the sent group (absent pRedAliq = 0). */
export interface SentRates { ibsUf: Pct4; ibsMun: Pct4; cbs: Pct4 }

export interface ItemToResolve {
  index: number;
  codigo: string;
  ncm: string;
  cfop: string;
  sent: SentIbsCbs;
}

export type ResolutionOrigin = 'ncm_unica' | 'memoria' | 'informada';

/** A class the service fills the group from. */
export interface ResolvedClass {
  index: number;
  origem: ResolutionOrigin;
  cst: string;
  cClassTrib: string;
  nome: string;
  rates: ClassRates;
}

export type UnresolvedReason = 'ncm_multiclasse' | 'ncm_sem_classe_automatica' | 'cclasstrib_invalido_para_ncm' | 'cclasstrib_inadmissivel_no_modelo' | 'cclasstrib_exige_grupo' | 'espelho_fiscal_divergente' | 'aliquotas_indisponiveis';

export interface UnresolvedItem {
  index: number;
  codigo: string;
  ncm: string;
  motivo: UnresolvedReason;
  mensagem: string;
  candidatas?: Candidate[];
}

export interface ResolutionResult {
  resolved: ResolvedClass[];
  unresolved: UnresolvedItem[];
  /** Classes the items sent, to record as `informado` once the note is accepted (memory rule 2). */
  sentClasses: { codigo: string; ncm: string; cClassTrib: string }[];
}

export const CODE_OF: Record<UnresolvedReason, ErrorCode> = {
  ncm_multiclasse: 'NCM_MULTICLASSE',
  ncm_sem_classe_automatica: 'NCM_SEM_CLASSE_AUTOMATICA',
  cclasstrib_invalido_para_ncm: 'CCLASSTRIB_INVALIDO_PARA_NCM',
  cclasstrib_inadmissivel_no_modelo: 'CCLASSTRIB_INADMISSIVEL_NO_MODELO',
  cclasstrib_exige_grupo: 'CCLASSTRIB_EXIGE_GRUPO',
  espelho_fiscal_divergente: 'ESPELHO_FISCAL_DIVERGENTE',
  aliquotas_indisponiveis: 'TRIBUTACAO_NAO_RESOLVIDA',
};

const MODEL_NAME = { '55': 'NF-e', '65': 'NFC-e' } as const;
const pct = (p: Pct4) => `${String(toPercent(p)).replace('.', ',')} %`;

export interface ResolveInput {
  index: CorrelationIndex;
  model: GoodsModel;
  /** ISO day of dhEmi in Brasília. */
  day: string;
  items: readonly ItemToResolve[];
  memory: ReadonlyMap<string, ProductClass>;
}

export function resolveItems(input: ResolveInput): ResolutionResult {
  const { index, model, day, memory } = input;
  const year = ratesOfYear(index.table.aliquotas, Number(day.slice(0, 4)));
  const out: ResolutionResult = { resolved: [], unresolved: [], sentClasses: [] };
  // A note repeats NCMs (990 items of a few products): each NCM's candidates are computed once.
  const byNcm = new Map<string, ReturnType<typeof candidatesOf>>();
  for (const item of input.items) {
    let found = byNcm.get(item.ncm);
    if (!found) { found = candidatesOf(index, item.ncm, day); byNcm.set(item.ncm, found); }
    const { classes, annexItems } = found;
    const views = (list: ClassTrib[]) => list.map((c) => candidateView(c, annexItems));
    const refuse = (motivo: UnresolvedReason, mensagem: string, candidatas?: ClassTrib[]) =>
      out.unresolved.push({ index: item.index, codigo: item.codigo, ncm: item.ncm, motivo, mensagem, ...(candidatas ? { candidatas: views(candidatas) } : {}) });
    /** The class's groups the builder does not write refuse it (true), whichever path chose it. */
    const lacksGroups = (c: ClassTrib): boolean => {
      const missing = unfilledGroups(index, c);
      if (missing.length) refuse('cclasstrib_exige_grupo', `cClassTrib ${c.cClassTrib} exige ${missing.join(', ')}, grupo que a API não preenche: informe outra classe`);
      return missing.length > 0;
    };
    const use = (c: ClassTrib, origem: ResolutionOrigin) => {
      if (lacksGroups(c)) return;
      if (!year) return refuse('aliquotas_indisponiveis', `alíquotas do IBS/CBS de ${day.slice(0, 4)} não carregadas (tabela ${index.table.versao})`);
      const rates = CST_WITHOUT_GROUP.has(c.cst) ? ZERO_RATES : classRates(year, c);
      out.resolved.push({ index: item.index, origem, cst: c.cst, cClassTrib: c.cClassTrib, nome: c.nome, rates });
    };
    const sent = item.sent;

    if (sent.kind === 'none') {
      if (!isSale(item.cfop)) { refuse('ncm_sem_classe_automatica', `CFOP ${item.cfop} não é venda: a classe depende da operação; informe em ibsCbs.cClassTrib a classe da operação (ex.: 410001 bonificação, 410003 doação) ou a do produto`); continue; }
      if (!classes.length) { refuse('ncm_sem_classe_automatica', `NCM ${item.ncm} sem correlação: informe o NCM de 8 dígitos ou ibsCbs.cClassTrib`); continue; }
      const admitted = classes.filter((c) => admittedIn(c, model));
      const stored = reusableClass(memory.get(item.codigo));
      const storedClass = stored ? admitted.find((c) => c.cClassTrib === stored) : undefined;
      if (storedClass) { use(storedClass, 'memoria'); continue; }
      if (admitted.length === 1) { use(admitted[0]!, 'ncm_unica'); continue; }
      if (!admitted.length) { refuse('ncm_sem_classe_automatica', `nenhuma classe candidata do NCM ${item.ncm} é admitida na ${MODEL_NAME[model]}`, classes); continue; }
      refuse('ncm_multiclasse', `NCM ${item.ncm} com ${admitted.length} classes possíveis: informe ibsCbs.cClassTrib ou confirme a classe do produto`, admitted);
      continue;
    }

    const claimed = sent.cClassTrib;
    const sale = isSale(item.cfop);
    let klass: ClassTrib | undefined;
    /** A class of the operation, not of the NCM: recorded nowhere (see the docblock). */
    let ofOperation = false;
    if (claimed !== undefined) {
      klass = classes.find((c) => c.cClassTrib === claimed);
      const known = index.byClass.get(claimed);
      if (!klass && !sale && known && known.anexo === null && validOn(known, day)) { klass = known; ofOperation = true; }
      if (!klass) {
        const why = !known ? `cClassTrib ${claimed} não existe na tabela ${index.table.versao}`
          : !validOn(known, day) ? `cClassTrib ${claimed} fora de vigência em ${day}`
          : !/^\d{8}$/.test(item.ncm) ? `NCM de 2 dígitos não permite conferir a classe: informe o NCM de 8 dígitos`
          : known.anexo === null && sale ? `cClassTrib ${claimed} não é classe candidata do NCM ${item.ncm}; classe de operação só com CFOP que não é venda (CFOP ${item.cfop} é venda)`
          : `cClassTrib ${claimed} não é classe candidata do NCM ${item.ncm}`;
        refuse('cclasstrib_invalido_para_ncm', why, classes.length ? classes : undefined);
        continue;
      }
      if (!admittedIn(klass, model)) {
        refuse('cclasstrib_inadmissivel_no_modelo', `cClassTrib ${claimed} não é admitido na ${MODEL_NAME[model]} (ind${model === '55' ? 'NFe' : 'NFCe'} = 0)`, classes.filter((c) => admittedIn(c, model)));
        continue;
      }
    } else {
      // A complete group without cClassTrib is the default class 000001 (API.md, ibsCbs table).
      klass = index.byClass.get('000001');
    }
    if (!klass) { refuse('cclasstrib_invalido_para_ncm', `cClassTrib 000001 ausente da tabela ${index.table.versao}`); continue; }
    if (lacksGroups(klass)) continue;
    if (sent.cst !== undefined && sent.cst !== klass.cst) {
      refuse('espelho_fiscal_divergente', `CST ${sent.cst} informado diverge do CST ${klass.cst} da classe ${klass.cClassTrib}`);
      continue;
    }
    if (sent.kind === 'complete') {
      // A rate whose full rate is 0 (the municipal IBS of 2026) reduces nothing: its pRedAliq is not compared.
      const wrong = ([['ibsUf', klass.pRedIBS], ['ibsMun', klass.pRedIBS], ['cbs', klass.pRedCBS]] as const)
        .filter(([k, expected]) => sent.nominal[k] > 0 && sent.pRedAliq[k] !== expected);
      if (wrong.length) {
        refuse('espelho_fiscal_divergente', `redução informada (${wrong.map(([k]) => `${k}.pRedAliq ${pct(sent.pRedAliq[k])}`).join(', ')}) diverge da classe ${klass.cClassTrib} (pRedIBS ${pct(klass.pRedIBS)}, pRedCBS ${pct(klass.pRedCBS)})`);
        continue;
      }
    } else {
      use(klass, 'informada');
    }
    if (claimed !== undefined && !ofOperation) out.sentClasses.push({ codigo: item.codigo, ncm: item.ncm, cClassTrib: claimed });
  }
  return out;
}
