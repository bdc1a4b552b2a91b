/**
 * The 44-character access key (chave de acesso), MOC 4.00 §5.4:
 * cUF(2) AAMM(4) CNPJ/CPF(14) mod(2) serie(3) nNF(9) tpEmis(1) cNF(8) cDV(1).
 * The CNPJ may be alphanumeric (NT 2025.001): characters count as `charCode - 48` in the modulo 11.
 */
export interface AccessKeyParts {
  cUF: string;
  /** Year and month of emission, AAMM. */
  aamm: string;
  /** CNPJ (14) or CPF left-padded with zeros to 14. */
  document: string;
  model: string;
  serie: number;
  numero: number;
  tpEmis: number;
  cNF: string;
}

/** IBGE UF codes that exist (API.md: "unknown UF code" makes a reference invalid). */
export const UF_CODES: Readonly<Record<string, string>> = {
  '11': 'RO', '12': 'AC', '13': 'AM', '14': 'RR', '15': 'PA', '16': 'AP', '17': 'TO',
  '21': 'MA', '22': 'PI', '23': 'CE', '24': 'RN', '25': 'PB', '26': 'PE', '27': 'AL', '28': 'SE', '29': 'BA',
  '31': 'MG', '32': 'ES', '33': 'RJ', '35': 'SP', '41': 'PR', '42': 'SC', '43': 'RS',
  '50': 'MS', '51': 'MT', '52': 'GO', '53': 'DF',
};

export const UF_BY_SIGLA: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(UF_CODES).map(([c, s]) => [s, c]));

/** Modulo 11 with weights 2..9 from the right; results 0 and 1 give 0. */
export function modulo11(body: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += (body.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function buildAccessKey(p: AccessKeyParts): string {
  const body = p.cUF.padStart(2, '0') + p.aamm + p.document.padStart(14, '0') + p.model.padStart(2, '0')
    + String(p.serie).padStart(3, '0') + String(p.numero).padStart(9, '0') + String(p.tpEmis) + p.cNF.padStart(8, '0');
  if (body.length !== 43) throw new Error(`access key body must have 43 characters, got ${body.length}`);
  return body + String(modulo11(body));
}

const SHAPE = /^\d{6}[0-9A-Z]{12}\d{26}$/;

export type AccessKeyProblem = 'formato' | 'uf' | 'mes' | 'modelo' | 'numero' | 'digito';

/** Parses and checks a key; `problem` names the first rule it breaks (API.md, rule 7 of emission). */
export function parseAccessKey(key: string): { ok: true; parts: AccessKeyParts & { cDV: number } } | { ok: false; problem: AccessKeyProblem } {
  if (typeof key !== 'string' || key.length !== 44 || !SHAPE.test(key)) return { ok: false, problem: 'formato' };
  const cUF = key.slice(0, 2);
  if (!UF_CODES[cUF]) return { ok: false, problem: 'uf' };
  const month = Number(key.slice(4, 6));
  if (month < 1 || month > 12) return { ok: false, problem: 'mes' };
  const model = key.slice(20, 22);
  if (!['55', '65', '59'].includes(model)) return { ok: false, problem: 'modelo' };
  const numero = Number(key.slice(25, 34));
  if (numero === 0) return { ok: false, problem: 'numero' };
  const cDV = Number(key[43]);
  if (modulo11(key.slice(0, 43)) !== cDV) return { ok: false, problem: 'digito' };
  return {
    ok: true,
    parts: {
      cUF, aamm: key.slice(2, 6), document: key.slice(6, 20), model, serie: Number(key.slice(22, 25)), numero,
      tpEmis: Number(key[34]), cNF: key.slice(35, 43), cDV,
    },
  };
}

/**
 * cNF: 8 random digits chosen by the emitter, which must differ from nNF (MOC: rejection 
 * "cNF igual a nNF" in some UFs). `random` is injected so lib stays deterministic in tests.
 */
export function chooseCnf(numero: number, random: () => number): string {
  for (;;) {
    const cnf = String(Math.floor(random() * 1e8)).padStart(8, '0');
    if (Number(cnf) !== numero && cnf !== '00000000') return cnf;
  }
}
