/**
 * Every public error code, spelled once. `status` is the HTTP status; `detail` the default
 * Portuguese message (a call site may give a more precise one). Source: API.md, Errors > Business
 * codes by status, plus codes this service defines where the spec says "not shown".
 *
 * Codes named after a bare HTTP status (BAD_REQUEST, NOT_FOUND…) are the slug map of API.md,
 * Errors > Slug rule 2; they are catalogued too so the gateway has one table to read.
 */
export const CATALOG = {
  // Generic, by status (API.md, Slug rule 2 and 3)
  VALIDATION_ERROR: { status: 400, detail: 'Dados de entrada inválidos.' },
  BAD_REQUEST: { status: 400, detail: 'Requisição inválida.' },
  UNAUTHORIZED: { status: 401, detail: 'Credenciais inválidas' },
  FORBIDDEN: { status: 403, detail: 'Acesso negado.' },
  NOT_FOUND: { status: 404, detail: 'Recurso não encontrado.' },
  METHOD_NOT_ALLOWED: { status: 405, detail: 'Método não permitido para este recurso.' },
  CONFLICT: { status: 409, detail: 'Conflito com o estado atual do recurso.' },
  PAYLOAD_TOO_LARGE: { status: 413, detail: 'Corpo da requisição excede o tamanho máximo.' },
  // HTTP parser refusals (lib/http/client-error.ts)
  REQUISICAO_INCOMPLETA: { status: 408, detail: 'A requisição não chegou completa a tempo.' },
  CABECALHOS_GRANDES_DEMAIS: { status: 431, detail: 'Cabeçalhos da requisição excedem o tamanho máximo.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, detail: 'Envie o corpo como application/json.' },
  UNPROCESSABLE_ENTITY: { status: 422, detail: 'Requisição não pode ser processada.' },
  RATE_LIMIT_EXCEEDED: { status: 429, detail: 'Limite de requisições por segundo excedido.' },
  INTERNAL_ERROR: { status: 500, detail: 'Erro interno. Tente novamente; se persistir, informe o requestId.' },
  BAD_GATEWAY: { status: 502, detail: 'Resposta inválida de um serviço externo.' },
  SERVICE_UNAVAILABLE: { status: 503, detail: 'Serviço temporariamente indisponível.' },
  // issue 23: a reply larger than the transporter's packet cap (config transportMaxPacketBytes) never travels.
  RESPOSTA_GRANDE_DEMAIS: { status: 502, detail: 'A resposta excede o tamanho máximo entre os serviços; restrinja a consulta (por exemplo, com paginação).' },
  GATEWAY_TIMEOUT: { status: 504, detail: 'Tempo de resposta esgotado.' },
  RECUSA_NAO_CATALOGADA: { status: 422, detail: 'Recusa não catalogada.' },

  // Access (API.md, Authentication)
  ASSINATURA_INATIVA: { status: 403, detail: 'Chave de produção exige assinatura ativa.' },
  CHAVE_TESTE_EMISSOR_PRODUCAO: { status: 403, detail: 'Chave ek_test_ só opera emissores em homologação ou sandbox.' },
  AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK: { status: 403, detail: 'Chave ek_test_ não pode alterar configurações de webhook.' },
  PERMISSAO_INSUFICIENTE: { status: 403, detail: 'Seu perfil não permite esta operação.' },
  PARCEIRO_COM_DOCUMENTOS: { status: 409, detail: 'Parceiro que já emitiu documento fiscal não pode ser desativado.' },

  // Idempotency (API.md, Limits > Idempotency)
  IDEMPOTENCIA_CORPO_DIVERGENTE: { status: 422, detail: 'Idempotency-Key já usada com outro corpo de requisição.' },
  IDEMPOTENCIA_EM_ANDAMENTO: { status: 409, detail: 'Requisição com esta Idempotency-Key ainda em processamento.' },

  // Webhooks (API.md, Events; webhook-dispatcher)
  WEBHOOK_URL_NAO_PERMITIDA: { status: 422, detail: 'webhookUrl aponta para um destino não permitido.' },
  WEBHOOK_NAO_CONFIGURADO: { status: 422, detail: 'Configure webhookUrl antes de usar esta rota.' },
  ENTREGA_FORA_DA_DLQ: { status: 409, detail: 'A entrega não está na fila de mensagens mortas.' },

  // Issuers and certificates
  CNPJ_CONFLICT: { status: 409, detail: 'CNPJ já cadastrado. Para assumir este CNPJ, solicite transferência.' },
  AMBIENTE_IMUTAVEL: { status: 422, detail: 'Ambiente do emissor não pode ser alterado.' },
  CERTIFICADO_AUSENTE: { status: 422, detail: 'Emissor sem certificado A1 válido instalado.' },
  CERTIFICADO_INVALIDO: { status: 422, detail: 'Arquivo não é um certificado PKCS#12 (A1) válido.' },
  CERTIFICADO_SENHA_INVALIDA: { status: 422, detail: 'Senha do certificado incorreta.' },
  CERTIFICADO_EXPIRADO: { status: 422, detail: 'Certificado expirado.' },
  CERTIFICADO_AINDA_NAO_VALIDO: { status: 422, detail: 'Certificado ainda não é válido.' },
  CERTIFICADO_CNPJ_DIVERGENTE: { status: 422, detail: 'CNPJ do certificado difere do CNPJ do emissor.' },
  // Issuer logo printed on the DANFE (issue 22 item 4; lib/issuer/logo.ts)
  LOGO_FORMATO_INVALIDO: { status: 422, detail: 'Logotipo deve ser uma imagem PNG ou JPEG válida.' },
  LOGO_GRANDE_DEMAIS: { status: 422, detail: 'Logotipo excede o tamanho máximo de 256 KB.' },
  LOGO_DIMENSOES_INVALIDAS: { status: 422, detail: 'Logotipo deve ter entre 32 e 2000 pixels de largura e de altura.' },
  LOGO_AUSENTE: { status: 404, detail: 'Emissor sem logotipo cadastrado.' },
  // DACCe (issue 22 item 5): only a carta de correção has one.
  EVENTO_SEM_DACCE: { status: 409, detail: 'Só a carta de correção tem DACCe; este evento é de outro tipo.' },
  CADASTRO_EMISSOR_INCOMPLETO: { status: 422, detail: 'Cadastro do emissor incompleto.' },
  CSC_AUSENTE: { status: 422, detail: 'NFC-e exige csc e cscId cadastrados no emissor.' },
  EMISSOR_INEXISTENTE: { status: 404, detail: 'Emissor não existe mais.' },

  // Numbering, resend, contingency (API.md, States and transitions)
  DOCUMENTO_EM_TRANSMISSAO: { status: 409, detail: 'Documento em transmissão para a autoridade fiscal; aguarde o resultado (consulte o documento ou aguarde o webhook) antes de reenviar.' },
  NUMERO_JA_UTILIZADO: { status: 409, detail: 'Número já utilizado nesta série e modelo.' },
  RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL: { status: 409, detail: 'Chave emitida em contingência que não pode ser restaurada.' },
  CONTINGENCIA_SITUACAO_INDETERMINADA: { status: 503, detail: 'Situação da nota indeterminada; o resultado chegará por webhook.' },
  // Issue 20: refused before numbering, so repeating the same request later is safe.
  EMISSOR_SOBRECARREGADO: { status: 503, detail: 'Emissões simultâneas demais deste emissor; nenhum número foi usado: repita a requisição em instantes.' },
  JUSTIFICATIVA_CONTINGENCIA_INVALIDA: { status: 422, detail: 'justificativaContingencia deve ter de 15 a 256 caracteres.' },
  XML_FORA_DO_ESQUEMA: { status: 422, detail: 'Documento gerado não passou no esquema oficial; nada foi transmitido.' },

  // NF-e XML (nfe-xml branch)
  QRCODE_FORA_DO_PADRAO: { status: 422, detail: 'QR Code da NFC-e fora do padrão do leiaute; a nota não foi emitida.' },
  UF_SEM_URL_NFCE: { status: 422, detail: 'UF do emissor sem endereço de consulta de NFC-e cadastrado.' },

  // Goods documents (API.md, NF-e payload, icms, pis/cofins/ipi, emission rules)
  CFOP_IDDEST_DIVERGENTE: { status: 422, detail: 'Itens com CFOP de destinos diferentes.' },
  INDFINAL_INCOERENTE_COM_DESTINATARIO: { status: 422, detail: 'indFinal 0 com destinatário não contribuinte.' },
  FINALIDADE_SEM_NFREF: { status: 422, detail: 'Finalidade exige documento referenciado.' },
  FINALIDADE_EXIGE_SEM_PAGAMENTO: { status: 422, detail: 'Finalidade exige um único pagamento forma 90 com valor 0.' },
  REFERENCIADA_INVALIDA: { status: 422, detail: 'Documento referenciado inválido.' },
  SEM_PAGAMENTO_INVALIDO: { status: 422, detail: 'Forma 90 (sem pagamento) exige valor 0 e nenhuma outra forma.' },
  SEM_PAGAMENTO_VEDADO_NFCE: { status: 422, detail: 'NFC-e não aceita forma de pagamento 90.' },
  PAGAMENTO_DIVERGENTE_DO_TOTAL: { status: 422, detail: 'Pagamentos menos troco devem igualar o total da nota.' },
  COBRANCA_INVALIDA: { status: 422, detail: 'Duplicatas exigem fatura.' },
  IPI_NAO_SUPORTADO: { status: 422, detail: 'NFC-e não aceita IPI.' },
  ICMS_ST_NAO_SUPORTADO: { status: 422, detail: 'Campos de ST não suportados.' },
  ICMS_ST_INVALIDO: { status: 422, detail: 'Grupo de ICMS ST inválido.' },
  ICMS_ST_INCOMPLETO: { status: 422, detail: 'Grupo de ICMS ST incompleto.' },
  ICMS_BENEFICIO_INVALIDO: { status: 422, detail: 'Valor de ICMS incoerente com base e alíquota.' },
  ICMS_MONOFASICO_NAO_SUPORTADO: { status: 422, detail: 'CST monofásico não suportado.' },
  ICMS_INVALIDO: { status: 422, detail: 'Grupo de ICMS inválido.' },
  FCP_INCOMPLETO: { status: 422, detail: 'Grupo de FCP deve ser informado completo.' },
  TRIBUTO_GRUPOS_MISTURADOS: { status: 422, detail: 'Não misture grupo de alíquota e grupo de quantidade.' },
  IPI_INVALIDO: { status: 422, detail: 'Grupo de IPI inválido para o CST.' },
  CEST_INVALIDO: { status: 422, detail: 'CEST deve ter 7 dígitos.' },
  CSOSN_NAO_SUPORTADO: { status: 422, detail: 'CSOSN não suportado.' },
  CSOSN_VALORES_NAO_SUPORTADOS: { status: 422, detail: 'CSOSN sem destaque não aceita alíquota, base ou valor.' },
  CSOSN_CFOP_MEI_INCOMPATIVEL: { status: 422, detail: 'MEI com CSOSN 102 exige CFOP 5102 ou 6102.' },
  COMBUSTIVEL_GRUPO_OBRIGATORIO: { status: 422, detail: 'Item de combustível exige o grupo combustivel.' },
  UNIDADE_TRIBUTAVEL_INVALIDA: { status: 422, detail: 'Unidade tributável incoerente com a unidade comercial.' },

  // NF-e rules (nfe-rules branch): codes where API.md says "not shown"
  PIS_COFINS_INVALIDO: { status: 422, detail: 'Grupo de PIS/COFINS inválido para o CST.' },
  IBSCBS_INCOMPLETO: { status: 422, detail: 'Grupo ibsCbs incompleto: informe ibsUf, ibsMun e cbs (ou use resolverTributacao).' },
  VALOR_TOTAL_ITEM_DIVERGENTE: { status: 422, detail: 'valorTotal do item difere de quantidade × valorUnitario em mais de 0,01.' },
  DESCONTO_SUPERIOR_AO_PRODUTO: { status: 422, detail: 'Desconto do item maior que o valor do produto.' },

  // Assisted taxation
  // Approximate tax of Lei 12.741/2012 (Issuer.valorAproximadoTributosEnabled; code defined here, the spec names none)
  TRIBUTOS_APROXIMADOS_INDISPONIVEIS: { status: 422, detail: 'Valor aproximado dos tributos indisponível para itens da nota: carregue a tabela vigente da UF do emissor ou desative valorAproximadoTributosEnabled.' },
  TABELA_TRIBUTOS_INVALIDA: { status: 422, detail: 'Tabela de tributos aproximados recusada: corrija as linhas indicadas e envie o arquivo inteiro de novo.' },
  NCM_MULTICLASSE: { status: 422, detail: 'NCM com mais de uma classe possível; informe ibsCbs.cClassTrib ou confirme a classe do produto em POST /v1/fiscal/classification/classe.' },
  NCM_SEM_CLASSE_AUTOMATICA: { status: 422, detail: 'Sem classe tributária automática para o item; informe ibsCbs.cClassTrib.' },
  CCLASSTRIB_INVALIDO_PARA_NCM: { status: 422, detail: 'cClassTrib inválido para o NCM.' },
  CCLASSTRIB_INADMISSIVEL_NO_MODELO: { status: 422, detail: 'cClassTrib não admitido neste modelo de documento.' },
  TRIBUTACAO_NAO_RESOLVIDA: { status: 422, detail: 'Tributação assistida não resolveu todos os campos.' },
  // Assisted taxation of goods (issue 17): codes defined here where API.md says "not shown"
  ESPELHO_FISCAL_DIVERGENTE: { status: 422, detail: 'Espelho fiscal divergente: o CST ou a redução do IBS/CBS informados não correspondem à classe tributária. Corrija o grupo ibsCbs (ou envie só cClassTrib para o serviço calcular), ou emita sem resolverTributacao com o grupo ibsCbs explícito.' },
  TRIBUTACAO_ASSISTIDA_INDISPONIVEL: { status: 403, detail: 'Tributação assistida (resolverTributacao) exige plano com fiscalBrain e o emissor com fiscalBrainEnabled.' },
  TABELA_CLASSIFICACAO_INVALIDA: { status: 422, detail: 'Tabelas de classificação IBS/CBS recusadas: corrija os arquivos indicados e envie a versão inteira de novo.' },
  PRODUTO_SEM_NCM: { status: 422, detail: 'Produto ainda sem NCM conhecido: informe ncm para confirmar a classe.' },

  // NFS-e
  RPS_SEM_CAMPO_NO_PADRAO_NACIONAL: { status: 422, detail: 'rps não existe no padrão nacional.' },
  CTRIBMUN_CONFLITO: { status: 422, detail: 'cTribMun e codigoTributacaoMunicipio divergentes.' },
  RETENCAO_ISS_CONFLITO: { status: 422, detail: 'tpRetISSQN e issRetidoPor divergentes.' },
  RETENCAO_PIS_COFINS_SEM_CST: { status: 422, detail: 'tpRetPisCofins exige cstPisCofins.' },
  RETENCAO_PIS_COFINS_INCOERENTE: { status: 422, detail: 'tpRetPisCofins incoerente com a retenção de CSLL.' },
  RETENCAO_SEM_CAMPO_NO_LEIAUTE: { status: 422, detail: 'Retenção sem campo no leiaute nacional.' },
  CRT2_SEM_REGIME_APURACAO: { status: 422, detail: 'Emissor com crt 2 exige regApTribSN.' },
  MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL: { status: 422, detail: 'Município não aderente ao padrão nacional neste ambiente.' },
  // NFS-e rule 8: the spec gives the 422 and no name
  PTOTTRIBSN_OBRIGATORIO: { status: 422, detail: 'Optante ME/EPP (opSimpNac 3) exige dpsNacional.pTotTribSN: informe-o na requisição ou cadastre pTotTribSNPadrao no emissor.' },

  // Emission service (issue 7): series reserved to the authority and contingency systems
  SERIE_NAO_PERMITIDA: { status: 422, detail: 'Série reservada: emissores comuns usam as séries 0 a 889.' },

  // Events after authorization and inutilização (API.md: paths and codes "not shown"; lib/emission/fiscal-events.ts, inutilizacao.ts)
  DOCUMENTO_NAO_CANCELAVEL: { status: 422, detail: 'Só um documento autorizado (AUTHORIZED) pode ser cancelado.' },
  CARTA_CORRECAO_NAO_PERMITIDA: { status: 422, detail: 'Carta de correção só para NF-e autorizada (AUTHORIZED).' },
  LIMITE_CARTAS_CORRECAO: { status: 422, detail: 'Limite de 20 cartas de correção por NF-e atingido.' },
  EVENTO_REJEITADO: { status: 422, detail: 'Evento rejeitado pela autoridade fiscal.' },
  EVENTO_EM_TRANSMISSAO: { status: 409, detail: 'Evento deste documento em transmissão para a autoridade fiscal; aguarde e repita a requisição.' },
  EVENTO_PENDENTE: { status: 409, detail: 'Há um evento deste documento sem resposta da autoridade; repita a requisição original para concluí-lo antes de enviar outro.' },
  AUTORIDADE_INDISPONIVEL: { status: 503, detail: 'Autoridade fiscal não respondeu; repita a mesma requisição para concluir (nada será enviado em duplicidade).' },
  FAIXA_INUTILIZACAO_INVERTIDA: { status: 422, detail: 'numeroFinal deve ser maior ou igual a numeroInicial.' },
  FAIXA_INUTILIZACAO_EXCEDIDA: { status: 422, detail: 'Faixa de inutilização com mais de 10000 números.' },
  FAIXA_CONTEM_NUMERO_UTILIZADO: { status: 409, detail: 'Faixa contém número já usado por documento deste emissor, modelo e série.' },
  FAIXA_JA_INUTILIZADA: { status: 409, detail: 'Faixa sobrepõe outra inutilização deste emissor, modelo e série.' },
  INUTILIZACAO_REJEITADA: { status: 422, detail: 'Inutilização rejeitada pela autoridade fiscal.' },
  NUMERO_INUTILIZADO: { status: 409, detail: 'Número inutilizado (ou reservado para inutilização) nesta série e modelo.' },

  // DANFE / DANFCE downloads (API.md: XML/PDF/HTML download paths "not shown"; lib/danfe/source.ts)
  DOCUMENTO_SEM_DANFE: { status: 409, detail: 'Documento sem DANFE: só documentos autorizados, cancelados ou NFC-e emitida em contingência têm documento auxiliar.' },

  // Authority (API.md, Errors > Fiscal rejection)
  REJEICAO_FISCAL: { status: 400, detail: 'Documento rejeitado pela autoridade fiscal.' },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ErrorCode = keyof typeof CATALOG;

export function isCatalogued(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(CATALOG, code);
}
