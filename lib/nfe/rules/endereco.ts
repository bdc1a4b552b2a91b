import { DomainError } from '../../errors/index.js';
import { municipality } from '../../issuer/municipalities.js';
import type { Endereco } from '../types.js';

/**
 * A recipient's address (enderDest, E05): the municipality is an IBGE code of the address's UF
 * (data/ibge/municipios.csv; the authority rejects 274 for a code in no UF or with a wrong IBGE
 * digit, 275 for another UF's), and the country agrees with it. MOC 4.00, E10-E15: a Brazilian
 * address has cPais 1058 (BACEN table, "Brasil"); an address abroad has UF EX, cMun 9999999 and
 * its country (any BACEN code other than 1058, with its name).
 */
export const BRASIL_CODIGO_PAIS = '1058';
export const EXTERIOR_UF = 'EX';
export const EXTERIOR_CODIGO_MUNICIPIO = '9999999';

/** "Brasil" however it is written: case and accents do not matter ("BRASIL", "brasil"). */
const isBrasil = (pais: string) => pais.normalize('NFD').replace(/\p{M}/gu, '').trim().toUpperCase() === 'BRASIL';

export function checkEndereco(endereco: Endereco, prefix: string): void {
  const codigo = `${prefix}.codigoMunicipio`;
  if (endereco.uf === EXTERIOR_UF) {
    if (endereco.codigoMunicipio !== EXTERIOR_CODIGO_MUNICIPIO) {
      throw new DomainError('MUNICIPIO_INVALIDO', { campo: codigo, valor: endereco.codigoMunicipio, uf: endereco.uf },
        `Endereço no exterior (uf EX) usa '${codigo}' 9999999, não ${endereco.codigoMunicipio}.`);
    }
    if (endereco.codigoPais === undefined || endereco.codigoPais === BRASIL_CODIGO_PAIS || endereco.pais === undefined || isBrasil(endereco.pais)) {
      throw paisIncoerente(prefix, endereco, `endereço no exterior (uf EX) exige '${prefix}.codigoPais' (código BACEN diferente de 1058) e '${prefix}.pais'`);
    }
    return;
  }
  const m = municipality(endereco.codigoMunicipio);
  if (!m) {
    throw new DomainError('MUNICIPIO_INVALIDO', { campo: codigo, valor: endereco.codigoMunicipio, uf: endereco.uf },
      `'${codigo}' ${endereco.codigoMunicipio} não é código IBGE de município.`);
  }
  if (m.uf !== endereco.uf) {
    throw new DomainError('MUNICIPIO_INVALIDO', { campo: codigo, valor: endereco.codigoMunicipio, uf: endereco.uf, ufDoMunicipio: m.uf },
      `'${codigo}' ${endereco.codigoMunicipio} (${m.nome}) é de ${m.uf}, não de ${endereco.uf}.`);
  }
  if ((endereco.codigoPais !== undefined && Number(endereco.codigoPais) !== Number(BRASIL_CODIGO_PAIS)) || (endereco.pais !== undefined && !isBrasil(endereco.pais))) {
    throw paisIncoerente(prefix, endereco, `endereço no Brasil (uf ${endereco.uf}) usa codigoPais 1058 e pais Brasil (ou omita os dois)`);
  }
}

function paisIncoerente(prefix: string, endereco: Endereco, motivo: string): DomainError {
  return new DomainError('PAIS_INCOERENTE', {
    campo: `${prefix}.codigoPais`, uf: endereco.uf,
    ...(endereco.codigoPais !== undefined ? { codigoPais: endereco.codigoPais } : {}),
    ...(endereco.pais !== undefined ? { pais: endereco.pais } : {}),
    motivo,
  }, `País incoerente com '${prefix}.uf': ${motivo}.`);
}
