/**
 * Id of infDPS (TSIdDPS, `DPS[0-9]{42}`): "DPS" + cLocEmi (7, IBGE code of the issuer's
 * municipality) + tpInsc (1 CPF, 2 CNPJ) + the issuer's registration (14, a CPF left-padded with
 * zeros) + série (5, left-padded) + nDPS (15, left-padded). Example from a real DPS:
 * DPS 3304557 2 11905971000105 00333 000000000000006.
 */
export function buildDpsId(cLocEmi: string, cnpjOrCpf: string, serie: number, nDPS: number): string {
  if (!/^\d{7}$/.test(cLocEmi)) throw new RangeError(`cLocEmi must be 7 digits: ${cLocEmi}`);
  if (!/^(\d{11}|\d{14})$/.test(cnpjOrCpf)) throw new RangeError(`issuer registration must be a CPF or CNPJ: ${cnpjOrCpf}`);
  if (!Number.isInteger(serie) || serie < 0 || serie > 99999) throw new RangeError(`serie out of range: ${serie}`);
  if (!Number.isSafeInteger(nDPS) || nDPS < 1 || nDPS > 999999999999999) throw new RangeError(`nDPS out of range: ${nDPS}`);
  const tpInsc = cnpjOrCpf.length === 14 ? '2' : '1';
  return `DPS${cLocEmi}${tpInsc}${cnpjOrCpf.padStart(14, '0')}${String(serie).padStart(5, '0')}${String(nDPS).padStart(15, '0')}`;
}
