import type { FieldError } from '../errors/index.js';
import { isValidCnpj } from './documents.js';
import { municipality } from './municipalities.js';
import type { IssuerProfile } from './model.js';

/**
 * Checks a schema cannot express, on values that already passed the schema: CNPJ check digits,
 * and the IBGE municipality code existing and belonging to the address UF (cUF of the code's first
 * two digits; SEFAZ rejects a mismatch with cStat 272/273).
 */
export function checkIssuerValues(values: { cnpj?: string | null; endereco?: IssuerProfile['endereco'] | null }): FieldError[] {
  const errors: FieldError[] = [];
  if (values.cnpj && !isValidCnpj(values.cnpj)) {
    errors.push({ field: 'cnpj', message: 'CNPJ inválido: dígitos verificadores não conferem.' });
  }
  const e = values.endereco;
  if (e?.codigoMunicipio) {
    const m = municipality(e.codigoMunicipio);
    if (!m) errors.push({ field: 'endereco.codigoMunicipio', message: `Código IBGE ${e.codigoMunicipio} não existe na tabela de municípios.` });
    else if (e.uf && m.uf !== e.uf) errors.push({ field: 'endereco.codigoMunicipio', message: `Município ${e.codigoMunicipio} (${m.nome}) pertence a ${m.uf}, não a ${e.uf}.` });
  }
  return errors;
}

/** Fills `municipio` from the IBGE table when the code is known and the name was not given. */
export function withMunicipalityName(endereco: IssuerProfile['endereco']): IssuerProfile['endereco'] {
  if (!endereco.codigoMunicipio || endereco.municipio) return endereco;
  const m = municipality(endereco.codigoMunicipio);
  return m ? { ...endereco, municipio: m.nome } : endereco;
}
