/**
 * The contract between emission and classification for the product class memory (issue 17): an
 * accepted note (CREATED, API.md States) writes this event into the emission outbox in its own
 * creating transaction; the classification service consumes the channel and applies the classes
 * once per event id. So the memory is written if and only if the note was accepted, neither
 * service touches the other's tables, and a crash between the two only delays the write.
 */
export const PRODUCT_CLASS_CHANNEL = 'classification.product-classes';
export const PRODUCT_CLASS_EVENT = 'classification.classes.sent';

export interface ProductClassEvent {
  id: string;
  type: typeof PRODUCT_CLASS_EVENT;
  timestamp: string;
  partnerId: string;
  data: {
    issuerId: string;
    documentId: string;
    /** Classes sent in items[].ibsCbs.cClassTrib (memory rule 2), one per item code. */
    classes: { codigo: string; ncm: string; cClassTrib: string }[];
  };
}
