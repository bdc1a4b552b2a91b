import type { Middleware, ServiceBroker } from 'moleculer';
import { DomainError } from '../../lib/errors/index.js';

/** Moleculer's packet type names (moleculer/src/packets.js). */
const PACKET_REQUEST = 'REQ';
const PACKET_RESPONSE = 'RES';

interface OutgoingPacket {
  type: string;
  payload: Record<string, any>;
}

/**
 * No packet above `maxBytes` goes on the transporter (issue 23, defect 2). With Redis, one reply of
 * tens of megabytes overflowed the gateway subscriber's output buffer; Redis then closed it and
 * every reply in transit to that gateway was lost (logins and authorized emissions answered 504).
 * The gateway bounds request bodies before they travel and error reports are bounded, so this is
 * the last line, not the common path:
 * - an oversized reply is replaced by a small error reply with the same id (RESPOSTA_GRANDE_DEMAIS,
 *   502), so the caller answers at once instead of waiting for its timeout;
 * - an oversized request fails at its sender (PAYLOAD_TOO_LARGE, 413), before anything is sent;
 * - any other packet (events, discovery) is dropped with an error log.
 * Streams are chunked by Moleculer and never reach the cap.
 */
export function TransportCapMiddleware(maxBytes: number): Middleware {
  let broker: ServiceBroker;
  return {
    name: 'TransportCap',
    created(b: ServiceBroker) {
      broker = b;
    },
    transporterSend(next: (topic: string, data: Buffer, meta: any) => Promise<void>) {
      return (topic: string, data: Buffer, meta: { packet?: OutgoingPacket }) => {
        if (data.length <= maxBytes) return next(topic, data, meta);
        const packet = meta?.packet;
        const logger = broker.getLogger('transport-cap');
        const requestId = packet?.payload?.requestID;
        const facts = { ...(requestId ? { requestId } : {}), bytes: data.length, limit: maxBytes, packet: packet?.type, action: packet?.payload?.action, event: packet?.payload?.event };
        if (packet?.type === PACKET_RESPONSE) {
          logger.warn(facts, 'reply above the transporter packet cap replaced by RESPOSTA_GRANDE_DEMAIS');
          const err = new DomainError('RESPOSTA_GRANDE_DEMAIS', { limiteBytes: maxBytes });
          const payload = {
            ...packet.payload, success: false, data: null, meta: {}, stream: false,
            error: { name: err.name, message: err.message, nodeID: broker.nodeID, code: err.code, type: err.type, retryable: false, data: err.data },
          };
          return next(topic, broker.serializer!.serialize(payload, PACKET_RESPONSE), meta);
        }
        if (packet?.type === PACKET_REQUEST) {
          logger.warn(facts, 'request above the transporter packet cap refused at its sender');
          return Promise.reject(new DomainError('PAYLOAD_TOO_LARGE', { limiteBytes: maxBytes }, 'Requisição excede o tamanho máximo entre os serviços.'));
        }
        logger.error(facts, 'packet above the transporter packet cap dropped');
        return Promise.reject(new Error(`packet of ${data.length} bytes above the transporter cap of ${maxBytes}`));
      };
    },
  } as unknown as Middleware;
}
