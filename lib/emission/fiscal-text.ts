/**
 * Free texts that go into signed authority messages (xJust of the cancellation and of the
 * inutilização, xCorrecao of the CC-e). The layout types them as TString (tiposBasico_v4.00.xsd):
 * characters from U+0020 to U+00FF, no space at either end. We also refuse the C1 control block
 * (U+007F-U+009F), which the pattern admits but no printer shows. A text is accepted as sent or
 * refused with 400: never trimmed, completed or truncated.
 */
export const FISCAL_TEXT_PATTERN = /^[!-~\u00A1-\u00FF](?:[ -~\u00A0-\u00FF]*[!-~\u00A1-\u00FF])?$/;

export const FISCAL_TEXT_MESSAGE = "O campo '{field}' aceita só caracteres imprimíveis do leiaute (Latin-1, sem quebra de linha) e não pode começar nem terminar com espaço.";

/** A fastest-validator rule for such a text; also feeds the OpenAPI document. */
export function fiscalTextRule(min: number, max: number, description: string) {
  return {
    type: 'string', min, max, pattern: FISCAL_TEXT_PATTERN, description,
    messages: { stringPattern: FISCAL_TEXT_MESSAGE },
  } as const;
}

export const JUSTIFICATIVA_MIN = 15;
export const JUSTIFICATIVA_MAX = 255;
export const CORRECAO_MIN = 15;
export const CORRECAO_MAX = 1000;
