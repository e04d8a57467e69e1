/**
 * ZATCA e-invoicing phase 1 (simplified tax invoice QR, "Generation phase"): the QR code holds
 * base64 of a TLV sequence — tag (1 byte), length (1 byte, of the UTF-8 value), value — with
 * 1 seller name, 2 seller VAT registration number, 3 invoice time (ISO 8601), 4 total with VAT,
 * 5 VAT total. Source: ZATCA, "E-Invoicing Detailed Guidelines" (QR code requirements, phase 1).
 */
export interface ZatcaQrFields {
  sellerName: string;
  vatNumber: string;
  /** ISO 8601, e.g. 2026-11-23T12:00:00Z. */
  timestamp: string;
  /** SAR with two decimals. */
  totalWithVat: string;
  vatTotal: string;
}

export function zatcaQrBase64(f: ZatcaQrFields): string {
  const parts = [f.sellerName, f.vatNumber, f.timestamp, f.totalWithVat, f.vatTotal].map((v, i) => {
    const value = Buffer.from(v, 'utf8');
    if (value.length > 255) throw new RangeError(`ZATCA QR field ${i + 1} is longer than 255 bytes`);
    return Buffer.concat([Buffer.from([i + 1, value.length]), value]);
  });
  return Buffer.concat(parts).toString('base64');
}

/** Read a phase-1 QR payload back into its fields (tests; support tools). */
export function decodeZatcaQr(b64: string): Record<number, string> {
  const buf = Buffer.from(b64, 'base64');
  const out: Record<number, string> = {};
  for (let i = 0; i < buf.length;) {
    const tag = buf[i];
    const len = buf[i + 1];
    out[tag] = buf.subarray(i + 2, i + 2 + len).toString('utf8');
    i += 2 + len;
  }
  return out;
}
