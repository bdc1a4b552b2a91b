/**
 * Every public error code, spelled once. `status` is the HTTP status; `detail` the default
 * Portuguese message (a call site may give a more precise one) and the cause the code's page
 * states; `fix` what the client does about it (the page at {errors_base}/<CODE>, lib/http/error-pages.ts). Source: API.md, Errors > Business
 * codes by status, plus codes this service defines where the spec says "not shown".
 *
 * Codes named after a bare HTTP status (BAD_REQUEST, NOT_FOUND…) are the slug map of API.md,
 * Errors > Slug rule 2; they are catalogued too so the gateway has one table to read.
 */
export const CATALOG = {
  // Generic, by status (API.md, Slug rule 2 and 3)
  VALIDATION_ERROR: { status: 400, detail: 'Dados de entrada inválidos.' , fix: 'Corrija os campos listados em errors[] (campo e motivo); campos desconhecidos vêm em details.camposDesconhecidos.' },
  BAD_REQUEST: { status: 400, detail: 'Requisição inválida.' , fix: 'Envie JSON válido, dentro dos limites de profundidade e tamanho, com parâmetros de caminho bem codificados.' },
  UNAUTHORIZED: { status: 401, detail: 'Credenciais inválidas' , fix: 'Envie x-api-key válida ou Authorization: Bearer com um access_token vigente (renove com /v1/auth/refresh).' },
  FORBIDDEN: { status: 403, detail: 'Acesso negado.' , fix: 'Use uma credencial com acesso ao recurso (login JWT onde a rota exige, parceiro dono do recurso).' },
  NOT_FOUND: { status: 404, detail: 'Recurso não encontrado.' , fix: 'Confira o caminho e o id; recursos de outro parceiro também respondem 404.' },
  METHOD_NOT_ALLOWED: { status: 405, detail: 'Método não permitido para este recurso.' , fix: 'Use um dos métodos do cabeçalho Allow.' },
  CONFLICT: { status: 409, detail: 'Conflito com o estado atual do recurso.' , fix: 'Consulte o estado atual do recurso (details) e repita só se a operação ainda fizer sentido.' },
  PAYLOAD_TOO_LARGE: { status: 413, detail: 'Corpo da requisição excede o tamanho máximo.' , fix: 'Reduza o corpo abaixo do limite (5 MB por padrão) ou divida o envio, por exemplo em lotes menores.' },
  // HTTP parser refusals (lib/http/client-error.ts)
  REQUISICAO_INCOMPLETA: { status: 408, detail: 'A requisição não chegou completa a tempo.' , fix: 'Envie a requisição inteira de uma vez e confira o Content-Length.' },
  CABECALHOS_GRANDES_DEMAIS: { status: 431, detail: 'Cabeçalhos da requisição excedem o tamanho máximo.' , fix: 'Reduza os cabeçalhos (cookies, tokens repetidos).' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, detail: 'Envie o corpo como application/json.' , fix: 'Envie Content-Type: application/json com o corpo em JSON.' },
  UNPROCESSABLE_ENTITY: { status: 422, detail: 'Requisição não pode ser processada.' , fix: 'Leia detail e details e corrija a regra indicada.' },
  RATE_LIMIT_EXCEEDED: { status: 429, detail: 'Limite de requisições por segundo excedido.' , fix: 'Espere o Retry-After (1 s) e respeite X-RateLimit-Remaining; para mais vazão, troque de plano.' },
  INTERNAL_ERROR: { status: 500, detail: 'Erro interno. Tente novamente; se persistir, informe o requestId.' , fix: 'Repita com a mesma Idempotency-Key; se persistir, informe o requestId ao suporte.' },
  BAD_GATEWAY: { status: 502, detail: 'Resposta inválida de um serviço externo.' , fix: 'Repita mais tarde; o serviço externo respondeu algo inválido.' },
  SERVICE_UNAVAILABLE: { status: 503, detail: 'Serviço temporariamente indisponível.' , fix: 'Repita após o Retry-After com a mesma Idempotency-Key: nada é duplicado.' },
  // issue 23: a reply larger than the transporter's packet cap (config transportMaxPacketBytes) never travels.
  RESPOSTA_GRANDE_DEMAIS: { status: 502, detail: 'A resposta excede o tamanho máximo entre os serviços; restrinja a consulta (por exemplo, com paginação).' , fix: 'Restrinja a consulta (filtros, limit menor, paginação por cursor).' },
  GATEWAY_TIMEOUT: { status: 504, detail: 'Tempo de resposta esgotado.' , fix: 'Consulte o recurso (GET) antes de repetir; uma emissão pode ter seguido e chegará por webhook.' },
  RECUSA_NAO_CATALOGADA: { status: 422, detail: 'Recusa não catalogada.' , fix: 'Leia detail; informe o requestId ao suporte para que o código seja catalogado.' },

  // Access (API.md, Authentication)
  ASSINATURA_INATIVA: { status: 403, detail: 'Chave de produção exige assinatura ativa.' , fix: 'Regularize a assinatura do parceiro ou use uma chave ek_test_ em homologação.' },
  CHAVE_TESTE_EMISSOR_PRODUCAO: { status: 403, detail: 'Chave ek_test_ só opera emissores em homologação ou sandbox.' , fix: 'Use a chave ek_live_ para emissores em produção, ou opere um emissor em homologação.' },
  AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK: { status: 403, detail: 'Chave ek_test_ não pode alterar configurações de webhook.' , fix: 'Altere webhooks com a chave ek_live_ ou com login (JWT).' },
  PERMISSAO_INSUFICIENTE: { status: 403, detail: 'Seu perfil não permite esta operação.' , fix: 'Peça a um administrador do parceiro (ou do provedor) para fazer a operação.' },
  PARCEIRO_COM_DOCUMENTOS: { status: 409, detail: 'Parceiro que já emitiu documento fiscal não pode ser desativado.' , fix: 'Suspenda a assinatura em vez de desativar: os documentos emitidos precisam continuar consultáveis.' },

  // Idempotency (API.md, Limits > Idempotency)
  IDEMPOTENCIA_CORPO_DIVERGENTE: { status: 422, detail: 'Idempotency-Key já usada com outro corpo de requisição.' , fix: 'Use uma Idempotency-Key nova para um corpo diferente; a mesma chave só repete o mesmo corpo.' },
  IDEMPOTENCIA_EM_ANDAMENTO: { status: 409, detail: 'Requisição com esta Idempotency-Key ainda em processamento.' , fix: 'Aguarde a primeira requisição terminar e repita com a mesma chave.' },

  // Webhooks (API.md, Events; webhook-dispatcher)
  WEBHOOK_URL_NAO_PERMITIDA: { status: 422, detail: 'webhookUrl aponta para um destino não permitido.' , fix: 'Use uma URL HTTPS pública (sem IP privado, localhost ou porta reservada).' },
  WEBHOOK_NAO_CONFIGURADO: { status: 422, detail: 'Configure webhookUrl antes de usar esta rota.' , fix: 'Configure webhookUrl em PATCH /v1/webhooks/config.' },
  ENTREGA_FORA_DA_DLQ: { status: 409, detail: 'A entrega não está na fila de mensagens mortas.' , fix: 'Só entregas na fila de mensagens mortas podem ser reenviadas; consulte GET /v1/webhooks/dlq.' },

  // Issuers and certificates
  CNPJ_CONFLICT: { status: 409, detail: 'CNPJ já cadastrado. Para assumir este CNPJ, solicite transferência.' , fix: 'Solicite a transferência do CNPJ em POST /v1/companies/transfer-request.' },
  AMBIENTE_IMUTAVEL: { status: 422, detail: 'Ambiente do emissor não pode ser alterado.' , fix: 'Peça ao provedor a troca de ambiente (rota de administração) ou cadastre outro emissor.' },
  CERTIFICADO_AUSENTE: { status: 422, detail: 'Emissor sem certificado A1 válido instalado.' , fix: 'Instale o A1 em POST /v1/companies/{id}/certificate.' },
  CERTIFICADO_INVALIDO: { status: 422, detail: 'Arquivo não é um certificado PKCS#12 (A1) válido.' , fix: 'Envie o arquivo .pfx/.p12 do A1 em base64, sem cabeçalhos PEM.' },
  CERTIFICADO_SENHA_INVALIDA: { status: 422, detail: 'Senha do certificado incorreta.' , fix: 'Envie a senha correta do arquivo PKCS#12.' },
  CERTIFICADO_EXPIRADO: { status: 422, detail: 'Certificado expirado.' , fix: 'Renove o certificado A1 na certificadora e instale o novo.' },
  CERTIFICADO_AINDA_NAO_VALIDO: { status: 422, detail: 'Certificado ainda não é válido.' , fix: 'Aguarde o início da validade ou confira o relógio da certificadora.' },
  CERTIFICADO_CNPJ_DIVERGENTE: { status: 422, detail: 'CNPJ do certificado difere do CNPJ do emissor.' , fix: 'Instale o A1 emitido para o CNPJ deste emissor.' },
  // Issuer logo printed on the DANFE (issue 22 item 4; lib/issuer/logo.ts)
  LOGO_FORMATO_INVALIDO: { status: 422, detail: 'Logotipo deve ser uma imagem PNG ou JPEG válida.', fix: 'Envie um arquivo PNG ou JPEG íntegro (o tipo é lido dos bytes, não da extensão).' },
  LOGO_GRANDE_DEMAIS: { status: 422, detail: 'Logotipo excede o tamanho máximo de 256 KB.', fix: 'Reduza o arquivo para até 256 KB (por exemplo, menos pixels ou mais compressão).' },
  LOGO_DIMENSOES_INVALIDAS: { status: 422, detail: 'Logotipo deve ter entre 32 e 2000 pixels de largura e de altura.', fix: 'Redimensione a imagem para 32 a 2000 pixels em cada lado.' },
  LOGO_AUSENTE: { status: 404, detail: 'Emissor sem logotipo cadastrado.', fix: 'Envie o logotipo em PUT /v1/companies/{id}/logo.' },
  // DACCe (issue 22 item 5): only a carta de correção has one.
  EVENTO_SEM_DACCE: { status: 409, detail: 'Só a carta de correção tem DACCe; este evento é de outro tipo.', fix: 'Peça o DACCe de um evento de carta de correção; os demais eventos têm só o XML.' },
  CADASTRO_EMISSOR_INCOMPLETO: { status: 422, detail: 'Cadastro do emissor incompleto.' , fix: 'Complete os campos do emissor listados em details (PATCH /v1/companies/{id}).' },
  CSC_AUSENTE: { status: 422, detail: 'NFC-e exige csc e cscId cadastrados no emissor.' , fix: 'Cadastre csc e cscId do emissor (obtidos na SEFAZ da UF) em PATCH /v1/companies/{id}.' },
  EMISSOR_INEXISTENTE: { status: 404, detail: 'Emissor não existe mais.' , fix: 'Confira o issuerId; o emissor foi removido ou transferido.' },

  // Numbering, resend, contingency (API.md, States and transitions)
  DOCUMENTO_EM_TRANSMISSAO: { status: 409, detail: 'Documento em transmissão para a autoridade fiscal; aguarde o resultado (consulte o documento ou aguarde o webhook) antes de reenviar.' , fix: 'Aguarde o resultado (GET do documento ou webhook) e só então reenvie.' },
  NUMERO_JA_UTILIZADO: { status: 409, detail: 'Número já utilizado nesta série e modelo.' , fix: 'Omita numero para a numeração automática ou use um número livre da série.' },
  RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL: { status: 409, detail: 'Chave emitida em contingência que não pode ser restaurada.' , fix: 'Emita uma nota nova; a chave de contingência não pode ser retomada.' },
  CONTINGENCIA_SITUACAO_INDETERMINADA: { status: 503, detail: 'Situação da nota indeterminada; o resultado chegará por webhook.' , fix: 'Aguarde o webhook com o resultado; não reemita.' },
  // Issue 20: refused before numbering, so repeating the same request later is safe.
  EMISSOR_SOBRECARREGADO: { status: 503, detail: 'Emissões simultâneas demais deste emissor; nenhum número foi usado: repita a requisição em instantes.' , fix: 'Repita em instantes com a mesma Idempotency-Key; nenhum número foi usado.' },
  JUSTIFICATIVA_CONTINGENCIA_INVALIDA: { status: 422, detail: 'justificativaContingencia deve ter de 15 a 256 caracteres.' , fix: 'Informe justificativaContingencia com 15 a 256 caracteres.' },
  DOCUMENTO_EXCEDE_TAMANHO_MAXIMO: { status: 422, detail: 'A nota assinada excede 500 KB, o limite da autoridade por mensagem (cStat 214); nada foi transmitido e nenhum número foi usado.' , fix: 'Divida os itens em mais de uma nota ou encurte textos opcionais (descrições, informações adicionais); details traz tamanhoBytes e limiteBytes.' },
  XML_FORA_DO_ESQUEMA: { status: 422, detail: 'Documento gerado não passou no esquema oficial; nada foi transmitido.' , fix: 'Corrija os campos indicados em details; informe o requestId se o corpo estiver correto.' },

  // NF-e XML (nfe-xml branch)
  QRCODE_FORA_DO_PADRAO: { status: 422, detail: 'QR Code da NFC-e fora do padrão do leiaute; a nota não foi emitida.' , fix: 'Confira csc e cscId do emissor; se estiverem corretos, informe o requestId.' },
  UF_SEM_URL_NFCE: { status: 422, detail: 'UF do emissor sem endereço de consulta de NFC-e cadastrado.' , fix: 'Confira a UF do emissor; se correta, informe o requestId ao suporte.' },

  // Goods documents (API.md, NF-e payload, icms, pis/cofins/ipi, emission rules)
  CFOP_IDDEST_DIVERGENTE: { status: 422, detail: 'Itens com CFOP de destinos diferentes.' , fix: 'Use CFOPs de um mesmo destino (5xxx interno, 6xxx interestadual, 7xxx exterior).' },
  INDFINAL_INCOERENTE_COM_DESTINATARIO: { status: 422, detail: 'indFinal 0 com destinatário não contribuinte.' , fix: 'Use indFinal 1 para destinatário não contribuinte.' },
  FINALIDADE_SEM_NFREF: { status: 422, detail: 'Finalidade exige documento referenciado.' , fix: 'Informe o documento referenciado (nfRef) para esta finalidade.' },
  FINALIDADE_EXIGE_SEM_PAGAMENTO: { status: 422, detail: 'Finalidade exige um único pagamento forma 90 com valor 0.' , fix: 'Envie um único pagamento com forma 90 e valor 0.' },
  REFERENCIADA_INVALIDA: { status: 422, detail: 'Documento referenciado inválido.' , fix: 'Informe uma chave de acesso referenciada válida (44 dígitos, dígito verificador correto).' },
  SEM_PAGAMENTO_INVALIDO: { status: 422, detail: 'Forma 90 (sem pagamento) exige valor 0 e nenhuma outra forma.' , fix: 'Com forma 90, envie valor 0 e nenhuma outra forma.' },
  SEM_PAGAMENTO_VEDADO_NFCE: { status: 422, detail: 'NFC-e não aceita forma de pagamento 90.' , fix: 'Informe a forma de pagamento real da venda.' },
  PAGAMENTO_DIVERGENTE_DO_TOTAL: { status: 422, detail: 'Pagamentos menos troco devem igualar o total da nota.' , fix: 'Ajuste os pagamentos (menos o troco) ao total da nota.' },
  COBRANCA_INVALIDA: { status: 422, detail: 'Duplicatas exigem fatura.' , fix: 'Informe a fatura junto com as duplicatas.' },
  IPI_NAO_SUPORTADO: { status: 422, detail: 'NFC-e não aceita IPI.' , fix: 'Remova o grupo ipi da NFC-e ou emita NF-e.' },
  ICMS_ST_NAO_SUPORTADO: { status: 422, detail: 'Campos de ST não suportados.' , fix: 'Remova os campos de ST ou use um CST com substituição tributária.' },
  ICMS_ST_INVALIDO: { status: 422, detail: 'Grupo de ICMS ST inválido.' , fix: 'Confira modBCST, vBCST, pICMSST e vICMSST do CST informado.' },
  ICMS_ST_INCOMPLETO: { status: 422, detail: 'Grupo de ICMS ST incompleto.' , fix: 'Informe todos os campos do grupo de ST.' },
  ICMS_BENEFICIO_INVALIDO: { status: 422, detail: 'Valor de ICMS incoerente com base e alíquota.' , fix: 'Ajuste vICMS a vBC × pICMS (tolerância de 0,01).' },
  ICMS_MONOFASICO_NAO_SUPORTADO: { status: 422, detail: 'CST monofásico não suportado.' , fix: 'Use outro CST; o monofásico ainda não é aceito.' },
  ICMS_INVALIDO: { status: 422, detail: 'Grupo de ICMS inválido.' , fix: 'Confira os campos de ICMS exigidos pelo CST informado.' },
  // Partilha do ICMS (EC 87/2015, group ICMSUFDest; lib/nfe/rules/icms-uf-dest.ts). The first is
  // SEFAZ rejection 695 ("Informado indevidamente o grupo de ICMS para a UF de destino").
  ICMS_UF_DEST_INDEVIDO: { status: 422, detail: 'Informado indevidamente o grupo de ICMS para a UF de destino (icmsUfDest): a partilha só se aplica à NF-e interestadual (idDest 2) para consumidor final (indFinal 1) não contribuinte (indicadorIE 9).', fix: 'Remova icmsUfDest dos itens, ou confira idDest, indFinal e o indicadorIE do destinatário.' },
  ICMS_UF_DEST_INVALIDO: { status: 422, detail: 'Grupo de ICMS para a UF de destino (icmsUfDest) incoerente: confira alíquotas, base e valores, ou omita o grupo para o serviço calculá-lo.', fix: 'Corrija os campos de details.campos aos valores de details.esperado, ou omita icmsUfDest para o serviço calcular.' },
  FCP_INCOMPLETO: { status: 422, detail: 'Grupo de FCP deve ser informado completo.' , fix: 'Informe base, alíquota e valor do FCP juntos.' },
  TRIBUTO_GRUPOS_MISTURADOS: { status: 422, detail: 'Não misture grupo de alíquota e grupo de quantidade.' , fix: 'Use só alíquota (percentual) ou só quantidade (valor por unidade).' },
  IPI_INVALIDO: { status: 422, detail: 'Grupo de IPI inválido para o CST.' , fix: 'Confira os campos de IPI exigidos pelo CST.' },
  CEST_INVALIDO: { status: 422, detail: 'CEST deve ter 7 dígitos.' , fix: 'Informe o CEST com 7 dígitos.' },
  CSOSN_NAO_SUPORTADO: { status: 422, detail: 'CSOSN não suportado.' , fix: 'Use um CSOSN aceito (ver a documentação do grupo icms).' },
  CSOSN_VALORES_NAO_SUPORTADOS: { status: 422, detail: 'CSOSN sem destaque não aceita alíquota, base ou valor.' , fix: 'Remova alíquota, base e valor do CSOSN sem destaque.' },
  CSOSN_CFOP_MEI_INCOMPATIVEL: { status: 422, detail: 'MEI com CSOSN 102 exige CFOP 5102 ou 6102.' , fix: 'Use CFOP 5102 ou 6102 para MEI com CSOSN 102.' },
  COMBUSTIVEL_GRUPO_OBRIGATORIO: { status: 422, detail: 'Item de combustível exige o grupo combustivel.' , fix: 'Informe o grupo combustivel (cProdANP e descrição) no item.' },
  UNIDADE_TRIBUTAVEL_INVALIDA: { status: 422, detail: 'Unidade tributável incoerente com a unidade comercial.' , fix: 'Ajuste unidadeTributavel e quantidadeTributavel à unidade comercial.' },

  // Identifiers and addresses of the parties (issue 22, item 1): what SEFAZ rejects with 208/237
  // (CNPJ/CPF), 209/210 (IE), 274/275 (municipality), refused here before numbering.
  CNPJ_INVALIDO: { status: 422, detail: 'CNPJ inválido: dígitos verificadores não conferem.', fix: 'Confira o CNPJ do campo em details.campo (14 dígitos, com os verificadores corretos).' },
  CPF_INVALIDO: { status: 422, detail: 'CPF inválido: dígitos verificadores não conferem.', fix: 'Confira o CPF do campo em details.campo (11 dígitos, com os verificadores corretos).' },
  IE_INVALIDA: { status: 422, detail: 'Inscrição estadual inválida para a UF (formato ou dígito verificador).', fix: 'Confira a IE com o cadastro da SEFAZ da UF em details.uf (SINTEGRA); sem IE, use indicadorIE 2 ou 9 sem o campo ie.' },
  MUNICIPIO_INVALIDO: { status: 422, detail: 'codigoMunicipio não é um código IBGE de município da UF do endereço.', fix: 'Use o código IBGE de 7 dígitos do município, da mesma UF do endereço.' },
  PAIS_INCOERENTE: { status: 422, detail: 'País incoerente com o endereço: no Brasil codigoPais 1058 (Brasil); no exterior uf EX, codigoMunicipio 9999999, codigoPais e pais.', fix: 'No Brasil omita o país ou use 1058/Brasil; no exterior use uf EX, codigoMunicipio 9999999 e o país do destinatário.' },

  // NF-e rules (nfe-rules branch): codes where API.md says "not shown"
  PIS_COFINS_INVALIDO: { status: 422, detail: 'Grupo de PIS/COFINS inválido para o CST.' , fix: 'Confira os campos de PIS/COFINS exigidos pelo CST.' },
  IBSCBS_INCOMPLETO: { status: 422, detail: 'Grupo ibsCbs incompleto: informe ibsUf, ibsMun e cbs (ou use resolverTributacao).' , fix: 'Informe ibsUf, ibsMun e cbs, ou use resolverTributacao.' },
  VALOR_TOTAL_ITEM_DIVERGENTE: { status: 422, detail: 'valorTotal do item difere de quantidade × valorUnitario em mais de 0,01.' , fix: 'Envie valorTotal igual a quantidade × valorUnitario (tolerância 0,01) ou omita-o.' },
  DESCONTO_SUPERIOR_AO_PRODUTO: { status: 422, detail: 'Desconto do item maior que o valor do produto.' , fix: 'Reduza o desconto ao valor do produto.' },

  // Assisted taxation
  // Approximate tax of Lei 12.741/2012 (Issuer.valorAproximadoTributosEnabled; code defined here, the spec names none)
  TRIBUTOS_APROXIMADOS_INDISPONIVEIS: { status: 422, detail: 'Valor aproximado dos tributos indisponível para itens da nota: carregue a tabela vigente da UF do emissor ou desative valorAproximadoTributosEnabled.' , fix: 'Carregue a tabela vigente da UF (POST /v1/admin/tributos-aproximados) ou desative valorAproximadoTributosEnabled.' },
  TABELA_TRIBUTOS_INVALIDA: { status: 422, detail: 'Tabela de tributos aproximados recusada: corrija as linhas indicadas e envie o arquivo inteiro de novo.' , fix: 'Corrija as linhas indicadas em details e envie o arquivo inteiro de novo.' },
  NCM_MULTICLASSE: { status: 422, detail: 'NCM com mais de uma classe possível; informe ibsCbs.cClassTrib ou confirme a classe do produto em POST /v1/fiscal/classification/classe.' , fix: 'Informe ibsCbs.cClassTrib ou confirme a classe em POST /v1/fiscal/classification/classe.' },
  NCM_SEM_CLASSE_AUTOMATICA: { status: 422, detail: 'Sem classe tributária automática para o item; informe ibsCbs.cClassTrib.' , fix: 'Informe ibsCbs.cClassTrib no item.' },
  CCLASSTRIB_INVALIDO_PARA_NCM: { status: 422, detail: 'cClassTrib inválido para o NCM.' , fix: 'Use um cClassTrib admitido para o NCM do item.' },
  CCLASSTRIB_INADMISSIVEL_NO_MODELO: { status: 422, detail: 'cClassTrib não admitido neste modelo de documento.' , fix: 'Use um cClassTrib admitido no modelo (NF-e, NFC-e ou NFS-e).' },
  TRIBUTACAO_NAO_RESOLVIDA: { status: 422, detail: 'Tributação assistida não resolveu todos os campos.' , fix: 'Informe os campos listados em details ou o grupo ibsCbs completo.' },
  // Assisted taxation of goods (issue 17): codes defined here where API.md says "not shown"
  ESPELHO_FISCAL_DIVERGENTE: { status: 422, detail: 'Espelho fiscal divergente: o CST ou a redução do IBS/CBS informados não correspondem à classe tributária. Corrija o grupo ibsCbs (ou envie só cClassTrib para o serviço calcular), ou emita sem resolverTributacao com o grupo ibsCbs explícito.' , fix: 'Corrija o grupo ibsCbs, envie só cClassTrib ou emita sem resolverTributacao.' },
  TRIBUTACAO_ASSISTIDA_INDISPONIVEL: { status: 403, detail: 'Tributação assistida (resolverTributacao) exige plano com fiscalBrain e o emissor com fiscalBrainEnabled.' , fix: 'Contrate plano com fiscalBrain e ative fiscalBrainEnabled no emissor.' },
  TABELA_CLASSIFICACAO_INVALIDA: { status: 422, detail: 'Tabelas de classificação IBS/CBS recusadas: corrija os arquivos indicados e envie a versão inteira de novo.' , fix: 'Corrija os arquivos indicados em details e envie a versão inteira de novo.' },
  CCLASSTRIB_EXIGE_GRUPO: { status: 422, detail: 'A classe tributária exige um grupo do IBS/CBS que a API não preenche (tributação regular, crédito presumido, estorno de crédito, monofasia, diferimento); nada foi emitido.' , fix: 'Informe em ibsCbs.cClassTrib outra classe, sem grupo exigido (details.itensNaoResolvidos[].mensagem diz qual grupo).' },
  PRODUTO_SEM_NCM: { status: 422, detail: 'Produto ainda sem NCM conhecido: informe ncm para confirmar a classe.' , fix: 'Informe ncm ao confirmar a classe do produto.' },

  // NFS-e
  RPS_SEM_CAMPO_NO_PADRAO_NACIONAL: { status: 422, detail: 'rps não existe no padrão nacional.' , fix: 'Remova rps; o padrão nacional numera a DPS.' },
  CTRIBMUN_CONFLITO: { status: 422, detail: 'cTribMun e codigoTributacaoMunicipio divergentes.' , fix: 'Envie só um dos dois campos, ou o mesmo valor nos dois.' },
  RETENCAO_ISS_CONFLITO: { status: 422, detail: 'tpRetISSQN e issRetidoPor divergentes.' , fix: 'Envie só tpRetISSQN ou issRetidoPor, ou valores coerentes.' },
  RETENCAO_PIS_COFINS_SEM_CST: { status: 422, detail: 'tpRetPisCofins exige cstPisCofins.' , fix: 'Informe cstPisCofins junto com tpRetPisCofins.' },
  RETENCAO_PIS_COFINS_INCOERENTE: { status: 422, detail: 'tpRetPisCofins incoerente com a retenção de CSLL.' , fix: 'Ajuste tpRetPisCofins à retenção de CSLL informada.' },
  RETENCAO_SEM_CAMPO_NO_LEIAUTE: { status: 422, detail: 'Retenção sem campo no leiaute nacional.' , fix: 'Remova a retenção que o leiaute nacional não tem.' },
  CRT2_SEM_REGIME_APURACAO: { status: 422, detail: 'Emissor com crt 2 exige regApTribSN.' , fix: 'Informe regApTribSN na NFS-e.' },
  MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL: { status: 422, detail: 'Município não aderente ao padrão nacional neste ambiente.' , fix: 'Confira o município; só municípios aderentes ao padrão nacional emitem por esta rota.' },
  // NFS-e rule 8: the spec gives the 422 and no name
  PTOTTRIBSN_OBRIGATORIO: { status: 422, detail: 'Optante ME/EPP (opSimpNac 3) exige dpsNacional.pTotTribSN: informe-o na requisição ou cadastre pTotTribSNPadrao no emissor.' , fix: 'Informe dpsNacional.pTotTribSN ou cadastre pTotTribSNPadrao no emissor.' },

  // Emission service (issue 7): series reserved to the authority and contingency systems
  SERIE_NAO_PERMITIDA: { status: 422, detail: 'Série reservada: emissores comuns usam as séries 0 a 889.' , fix: 'Use uma série de 0 a 889.' },

  // Events after authorization and inutilização (API.md: paths and codes "not shown"; lib/emission/fiscal-events.ts, inutilizacao.ts)
  DOCUMENTO_NAO_CANCELAVEL: { status: 422, detail: 'Só um documento autorizado pode ser cancelado.' , fix: 'Cancele só documentos autorizados; confira details.status.' },
  CARTA_CORRECAO_NAO_PERMITIDA: { status: 422, detail: 'Carta de correção só para NF-e autorizada.' , fix: 'Envie carta de correção só para NF-e autorizada.' },
  LIMITE_CARTAS_CORRECAO: { status: 422, detail: 'Limite de 20 cartas de correção por NF-e atingido.' , fix: 'Não há mais cartas possíveis; cancele e emita nova nota se ainda couber.' },
  EVENTO_REJEITADO: { status: 422, detail: 'Evento rejeitado pela autoridade fiscal.' , fix: 'Leia erros[] (cStat e xMotivo da autoridade) e corrija antes de enviar de novo.' },
  EVENTO_EM_TRANSMISSAO: { status: 409, detail: 'Evento deste documento em transmissão para a autoridade fiscal; aguarde e repita a requisição.' , fix: 'Aguarde e repita a requisição.' },
  EVENTO_PENDENTE: { status: 409, detail: 'Há um evento deste documento sem resposta da autoridade; repita a requisição original para concluí-lo antes de enviar outro.' , fix: 'Repita a requisição original do evento pendente para concluí-lo.' },
  AUTORIDADE_INDISPONIVEL: { status: 503, detail: 'Autoridade fiscal não respondeu; repita a mesma requisição para concluir (nada será enviado em duplicidade).' , fix: 'Repita a mesma requisição em instantes; nada é enviado em duplicidade.' },
  FAIXA_INUTILIZACAO_INVERTIDA: { status: 422, detail: 'numeroFinal deve ser maior ou igual a numeroInicial.' , fix: 'Envie numeroFinal maior ou igual a numeroInicial.' },
  FAIXA_INUTILIZACAO_EXCEDIDA: { status: 422, detail: 'Faixa de inutilização com mais de 10000 números.' , fix: 'Divida a faixa em pedidos de até 10000 números.' },
  FAIXA_CONTEM_NUMERO_UTILIZADO: { status: 409, detail: 'Faixa contém número já usado por documento deste emissor, modelo e série.' , fix: 'Retire da faixa os números já usados (details).' },
  FAIXA_JA_INUTILIZADA: { status: 409, detail: 'Faixa sobrepõe outra inutilização deste emissor, modelo e série.' , fix: 'Consulte GET /v1/nfe/inutilizacao e peça só a parte ainda livre.' },
  INUTILIZACAO_REJEITADA: { status: 422, detail: 'Inutilização rejeitada pela autoridade fiscal.' , fix: 'Leia erros[] (cStat e xMotivo) e corrija antes de pedir de novo.' },
  NUMERO_INUTILIZADO: { status: 409, detail: 'Número inutilizado (ou reservado para inutilização) nesta série e modelo.' , fix: 'Use outro número ou omita numero para a numeração automática.' },

  // DANFE / DANFCE downloads (API.md: XML/PDF/HTML download paths "not shown"; lib/danfe/source.ts)
  DOCUMENTO_SEM_DANFE: { status: 409, detail: 'Documento sem DANFE: só documentos autorizados, cancelados ou NFC-e emitida em contingência têm documento auxiliar.' , fix: 'Aguarde a autorização; documentos rejeitados ou pendentes não têm DANFE.' },

  // Authority (API.md, Errors > Fiscal rejection)
  REJEICAO_FISCAL: { status: 400, detail: 'Documento rejeitado pela autoridade fiscal.' , fix: 'Leia erros[] (cStat e xMotivo da autoridade), corrija a nota e emita de novo; o XML transmitido está em /{id}/xml.' },
} as const satisfies Record<string, { status: number; detail: string; fix: string }>;

export type ErrorCode = keyof typeof CATALOG;

export function isCatalogued(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(CATALOG, code);
}
