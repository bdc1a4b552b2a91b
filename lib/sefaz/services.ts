/**
 * The NF-e 4.00 web services this client speaks (MOC 4.00 §3; WSDL namespaces
 * `http://www.portalfiscal.inf.br/nfe/wsdl/<operation>`). `method` is the WSDL operation used in the
 * SOAP 1.2 `action` parameter; `tag` is the element name in data/sefaz/wsnfe_4.00_mod*.xml.
 */
export type SefazService =
  | 'NFeAutorizacao4'
  | 'NFeRetAutorizacao4'
  | 'NFeConsultaProtocolo4'
  | 'NFeStatusServico4'
  | 'NFeRecepcaoEvento4'
  | 'NFeInutilizacao4';

export interface ServiceInfo {
  method: string;
  tag: string;
  /** versaoDados of the message. */
  version: string;
}

export const SERVICES: Readonly<Record<SefazService, ServiceInfo>> = {
  NFeAutorizacao4: { method: 'nfeAutorizacaoLote', tag: 'NfeAutorizacao', version: '4.00' },
  NFeRetAutorizacao4: { method: 'nfeRetAutorizacaoLote', tag: 'NfeRetAutorizacao', version: '4.00' },
  NFeConsultaProtocolo4: { method: 'nfeConsultaNF', tag: 'NfeConsultaProtocolo', version: '4.00' },
  NFeStatusServico4: { method: 'nfeStatusServicoNF', tag: 'NfeStatusServico', version: '4.00' },
  NFeRecepcaoEvento4: { method: 'nfeRecepcaoEvento', tag: 'RecepcaoEvento', version: '1.00' },
  NFeInutilizacao4: { method: 'nfeInutilizacaoNF', tag: 'NfeInutilizacao', version: '4.00' },
};

export const SERVICE_NAMES = Object.keys(SERVICES) as SefazService[];

export function isSefazService(name: string): name is SefazService {
  return Object.prototype.hasOwnProperty.call(SERVICES, name);
}

export const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';
export const WSDL_NS_BASE = 'http://www.portalfiscal.inf.br/nfe/wsdl/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
