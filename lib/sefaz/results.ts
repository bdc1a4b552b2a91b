/**
 * What an authority call can come to, as a closed union: the emission service decides a document's
 * state from `kind` alone (issue: "Results are typed").
 *
 * The split that matters for never losing or duplicating a note is between `failed` (the request
 * certainly did not reach the authority: safe to send again or go to contingency) and `unknown`
 * (it may have been processed: consult by access key before anything else).
 */
export interface AuthorityMessage {
  cStat: number;
  /** Verbatim from the authority. */
  xMotivo: string;
}

export interface Protocol {
  /** nProt */
  protocol: string;
  /** dhRecbto, ISO 8601 with offset as the authority wrote it. */
  receivedAt: string;
  /** digVal: the DigestValue the authority saw. */
  digest: string;
  /** The protNFe element as received, to assemble nfeProc. */
  protNFeXml: string;
}

export type InfrastructureReason =
  | 'connect' // TCP/DNS failure before anything was sent
  | 'tls' // handshake refused (certificate, CA)
  | 'timeout-before-send' // the socket got no TCP/TLS connection or no "100 Continue" in time
  | 'circuit-open' // breaker open for this UF and environment
  | 'queue-full' // too many transmissions of this issuer already waiting for one of its connections
  | 'queue-timeout' // waited too long for one of this issuer's connections
  | 'authority-down' // the authority answered 108/109 (service stopped): nothing was processed
  | 'http-status' // non-2xx answer that carries no SOAP result
  | 'timeout-after-send' // sent, no answer in time
  | 'connection-lost-after-send'
  | 'malformed-response'
  // Not infrastructure: 204 for our own key and the consult did not settle it (lib/emission/duplicate-key.ts).
  | 'duplicate-key';

export type AuthorizationResult =
  | ({ kind: 'authorized' } & AuthorityMessage & Protocol)
  /** Uso denegado (110, 301, 302, 303…): the number is used and the note cannot circulate. */
  | ({ kind: 'denied' } & AuthorityMessage & Partial<Protocol>)
  | ({ kind: 'rejected' } & AuthorityMessage)
  /** Asynchronous batch accepted (103): ask NFeRetAutorizacao4 with the receipt. */
  | ({ kind: 'processing'; receipt: string } & AuthorityMessage)
  | { kind: 'failed'; reason: InfrastructureReason; detail: string }
  | { kind: 'unknown'; reason: InfrastructureReason; detail: string };

/** An event the authority registered for the key, as retConsSitNFe lists it (procEventoNFe). */
export interface RegisteredEvent {
  tpEvento: string;
  sequence: number;
  cStat: number;
  xMotivo: string;
  protocol: string;
  registeredAt: string;
  /** The procEventoNFe element as received. */
  procEventoXml: string;
}

export type ConsultResult =
  | ({ kind: 'authorized'; events?: RegisteredEvent[] } & AuthorityMessage & Protocol)
  | ({ kind: 'canceled'; events?: RegisteredEvent[] } & AuthorityMessage & Partial<Protocol>)
  | ({ kind: 'denied' } & AuthorityMessage & Partial<Protocol>)
  /** 217: the authority has no note with this key. */
  | ({ kind: 'not-found' } & AuthorityMessage)
  | ({ kind: 'rejected' } & AuthorityMessage)
  | { kind: 'failed'; reason: InfrastructureReason; detail: string };

export type StatusResult =
  | ({ kind: 'up' } & AuthorityMessage & { checkedAt: string })
  | ({ kind: 'down' } & AuthorityMessage & { checkedAt: string })
  /** An answer about the request or the caller, not the service (e.g. 252 wrong ambiente, 289 UF not served, 656 consumo indevido). */
  | ({ kind: 'refused' } & AuthorityMessage & { checkedAt: string })
  | { kind: 'failed'; reason: InfrastructureReason; detail: string };

export type EventResult =
  | ({ kind: 'registered'; protocol: string; receivedAt: string; procEventoXml: string } & AuthorityMessage)
  | ({ kind: 'rejected' } & AuthorityMessage)
  | { kind: 'failed'; reason: InfrastructureReason; detail: string }
  | { kind: 'unknown'; reason: InfrastructureReason; detail: string };

export type InutilizacaoResult =
  | ({ kind: 'homologated'; protocol: string; receivedAt: string; procInutXml: string } & AuthorityMessage)
  | ({ kind: 'rejected' } & AuthorityMessage)
  | { kind: 'failed'; reason: InfrastructureReason; detail: string }
  | { kind: 'unknown'; reason: InfrastructureReason; detail: string };
