/**
 * Which operations assisted taxation answers for without a class from the partner. The IBS/CBS
 * class of a good depends on the operation as much as on the NCM: a bonus (CFOP 5910) is 410001,
 * an export 410004, a transfer 410002. The NCM correlation says nothing about those, so the
 * service resolves a class by itself (single candidate, or the product's stored class) only for
 * sales of goods: CFOP x101-x125 (sales of production or of goods bought) and x401-x405 (the same
 * under ICMS ST), interstate or internal (first digit 5 or 6). Anything else needs the class sent.
 */
export function isSale(cfop: string): boolean {
  if (!/^[56]\d{3}$/.test(cfop)) return false;
  const rest = Number(cfop.slice(1));
  return (rest >= 101 && rest <= 125) || (rest >= 401 && rest <= 405);
}

/**
 * A plain sale for the CSOSN default 102 ("tributada pelo Simples Nacional sem permissão de
 * crédito"): a sale without ICMS ST (x101-x108). MEI (crt 4) is narrower (API.md, icms rule 8):
 * only 5102/6102 in the NF-e and 5102 in the NFC-e.
 */
export function isPlainSaleForCsosn(cfop: string, crt: number, model: '55' | '65'): boolean {
  if (crt === 4) return model === '65' ? cfop === '5102' : cfop === '5102' || cfop === '6102';
  if (!/^[56]\d{3}$/.test(cfop)) return false;
  const rest = Number(cfop.slice(1));
  return rest >= 101 && rest <= 108 && !(model === '65' && cfop.startsWith('6'));
}
