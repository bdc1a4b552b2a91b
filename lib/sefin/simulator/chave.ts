import { modulo11 } from '../../nfe/access-key.js';

/**
 * chaveAcesso of an NFS-e (TSChaveNFSe, 50 digits; the infNFSe Id is "NFS" + it): cLocEmi (7) +
 * ambGer (1) + tpInsc (1: CPF, 2: CNPJ) + the issuer's registration (14, a CPF left-padded) +
 * nNFSe (13) + year and month of issue AAMM (4) + a 9-digit code + check digit (modulo 11, the
 * NF-e rule), as the national standard's manual lays it out.
 */
export interface ChaveParts {
  cLocEmi: string;
  ambGer: '1' | '2';
  cnpjOrCpf: string;
  nNFSe: number;
  /** AAMM of the NFS-e's generation. */
  aamm: string;
  /** 9-digit numeric code. */
  cNum: number;
}

export function buildChaveNfse(p: ChaveParts): string {
  if (!/^\d{7}$/.test(p.cLocEmi)) throw new RangeError(`cLocEmi must be 7 digits: ${p.cLocEmi}`);
  if (!/^(\d{11}|\d{14})$/.test(p.cnpjOrCpf)) throw new RangeError('registration must be a CPF or CNPJ');
  if (!/^\d{4}$/.test(p.aamm)) throw new RangeError(`aamm must be 4 digits: ${p.aamm}`);
  const body = p.cLocEmi + p.ambGer + (p.cnpjOrCpf.length === 14 ? '2' : '1') + p.cnpjOrCpf.padStart(14, '0')
    + String(p.nNFSe).padStart(13, '0') + p.aamm + String(p.cNum % 1_000_000_000).padStart(9, '0');
  if (body.length !== 49) throw new RangeError(`nNFSe out of range: ${p.nNFSe}`);
  return body + String(modulo11(body));
}

export function isValidChaveNfse(chave: string): boolean {
  return /^\d{50}$/.test(chave) && String(modulo11(chave.slice(0, 49))) === chave[49];
}
