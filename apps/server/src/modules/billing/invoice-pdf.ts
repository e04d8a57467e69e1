import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { Invoice } from '@masar/shared';

/**
 * A simplified tax invoice as a PDF (A4), in English and Arabic side by side (ZATCA phase 1:
 * seller name and VAT number, time, lines with VAT, totals, the QR code of the TLV payload).
 * Arabic is set in Noto Naskh Arabic (SIL OFL, @fontsource) and shaped by fontkit; pdfkit lays a
 * line out left to right, so an Arabic line is placed word by word from the right. Numbers are
 * set in Helvetica in their own cells, never inside an Arabic run.
 */
const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('@fontsource/noto-naskh-arabic/package.json')), 'files');
let fonts: { regular: Buffer; bold: Buffer } | null = null;
const arabicFonts = () =>
  (fonts ??= {
    regular: readFileSync(join(FONT_DIR, 'noto-naskh-arabic-arabic-400-normal.woff')),
    bold: readFileSync(join(FONT_DIR, 'noto-naskh-arabic-arabic-700-normal.woff')),
  });

/** Words of an Arabic line in reading order, with dashes the Arabic font has (U+2010) and no full stops. */
const words_ = (s: string) => s.replace(/[—–-]/g, '\u2010').replace(/\./g, '').split(/\s+/).filter(Boolean);

const MARGIN = 40;
const WIDTH = 595.28 - 2 * MARGIN;

export async function renderInvoicePdf(inv: Invoice): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: `Tax invoice ${inv.number}`, Author: inv.seller.nameEn } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const f = arabicFonts();
  doc.registerFont('ar', f.regular);
  doc.registerFont('ar-bold', f.bold);

  const en = (text: string, x: number, y: number, w: number, opts: { bold?: boolean; size?: number; align?: 'left' | 'right' | 'center' } = {}) =>
    doc
      .font(opts.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(opts.size ?? 9)
      .text(text, x, y, { width: w, align: opts.align ?? 'left', lineBreak: true });
  /**
   * An Arabic line: each word shaped by fontkit and placed by hand from the right, because
   * pdfkit's own line layout runs left to right (and dropped a space between the words).
   */
  const ar = (text: string, x: number, y: number, w: number, opts: { bold?: boolean; size?: number; align?: 'left' | 'right' | 'center' } = {}) => {
    doc.font(opts.bold ? 'ar-bold' : 'ar').fontSize(opts.size ?? 10);
    const words = words_(text);
    const gap = doc.widthOfString(' ') || (opts.size ?? 10) * 0.25;
    const widths = words.map((word) => doc.widthOfString(word));
    const total = widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, words.length - 1);
    const align = opts.align ?? 'right';
    let right = align === 'right' ? x + w : align === 'left' ? x + Math.min(total, w) : x + (w + Math.min(total, w)) / 2;
    words.forEach((word, i) => {
      right -= widths[i];
      doc.text(word, right, y, { lineBreak: false });
      right -= gap;
    });
  };
  const rule = (y: number) =>
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + WIDTH, y)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();

  // Title
  en('Simplified tax invoice', MARGIN, MARGIN, WIDTH / 2, { bold: true, size: 16 });
  ar('فاتورة ضريبية مبسطة', MARGIN + WIDTH / 2, MARGIN - 4, WIDTH / 2, { bold: true, size: 17 });
  let y = MARGIN + 30;
  const issued = inv.issuedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  const pairs: [string, string, string][] = [
    ['Invoice number', inv.number, 'رقم الفاتورة'],
    ['Issue date', issued, 'تاريخ الإصدار'],
  ];
  for (const [l, v, a] of pairs) {
    en(l, MARGIN, y, 150);
    en(v, MARGIN + 150, y, WIDTH - 300, { align: 'center', bold: true });
    ar(a, MARGIN + WIDTH - 150, y - 2, 150);
    y += 16;
  }
  y += 6;
  rule(y);
  y += 10;

  // Seller and buyer
  en('Seller', MARGIN, y, WIDTH / 2, { bold: true });
  ar('البائع', MARGIN + WIDTH / 2, y - 2, WIDTH / 2, { bold: true });
  y += 15;
  en(inv.seller.nameEn, MARGIN, y, WIDTH / 2);
  ar(inv.seller.nameAr, MARGIN + WIDTH / 2, y - 2, WIDTH / 2);
  y += 15;
  en(`VAT number: ${inv.seller.vatNumber}`, MARGIN, y, WIDTH / 2);
  ar('الرقم الضريبي', MARGIN + WIDTH - 110, y - 2, 110);
  en(inv.seller.vatNumber, MARGIN + WIDTH - 260, y, 145, { align: 'right' });
  y += 15;
  en(inv.seller.address, MARGIN, y, WIDTH);
  y += 22;
  en('Buyer', MARGIN, y, WIDTH / 2, { bold: true });
  ar('المشتري', MARGIN + WIDTH / 2, y - 2, WIDTH / 2, { bold: true });
  y += 15;
  // user-entered names may be in either script: Latin in Helvetica, Arabic in Naskh
  const hasArabic = (s: string) => /[\u0600-\u06FF]/.test(s);
  for (const line of [inv.buyer.companyName, inv.buyer.name]) {
    if (hasArabic(line)) ar(line, MARGIN, y - 2, WIDTH / 2, { align: 'left' });
    else en(line, MARGIN, y, WIDTH / 2);
    y += 14;
  }
  en(inv.buyer.phone, MARGIN, y, WIDTH / 2);
  y += 22;

  // Lines
  const cols = [
    { en: 'Description', ar: 'الوصف', w: 190, align: 'left' as const },
    { en: 'Qty', ar: 'الكمية', w: 35, align: 'right' as const },
    { en: 'Unit price', ar: 'سعر الوحدة', w: 70, align: 'right' as const },
    { en: 'Discount', ar: 'الخصم', w: 60, align: 'right' as const },
    { en: 'Taxable', ar: 'الخاضع للضريبة', w: 70, align: 'right' as const },
    { en: 'VAT 15%', ar: 'الضريبة', w: 90, align: 'right' as const },
  ];
  rule(y);
  y += 6;
  let x = MARGIN;
  for (const c of cols) {
    en(c.en, x, y, c.w, { bold: true, align: c.align });
    ar(c.ar, x, y + 11, c.w, { align: c.align, size: 9 });
    x += c.w;
  }
  y += 32;
  rule(y);
  y += 6;
  for (const l of inv.lines) {
    x = MARGIN;
    en(l.description.en, x, y, cols[0].w);
    ar(l.description.ar, x, y + 12, cols[0].w, { align: 'left', size: 9 });
    x += cols[0].w;
    const cells = [String(l.quantity), l.unitPriceSar, l.discountSar, l.amountSar, l.vatSar];
    cells.forEach((v, i) => {
      en(v, x, y, cols[i + 1].w, { align: 'right' });
      x += cols[i + 1].w;
    });
    y += 32;
  }
  rule(y);
  y += 10;

  // Totals (SAR) and the QR code
  const qrTop = y;
  const totals: [string, string, string, boolean][] = [
    ['Total excluding VAT (SAR)', inv.subtotalSar, 'الإجمالي غير شامل الضريبة', false],
    ['VAT 15% (SAR)', inv.vatSar, 'ضريبة القيمة المضافة', false],
    ['Total including VAT (SAR)', inv.totalSar, 'الإجمالي شامل الضريبة', true],
  ];
  const tx = MARGIN + 180;
  for (const [l, v, a, bold] of totals) {
    en(l, tx, y, 150, { bold });
    en(v, tx + 150, y, 60, { align: 'right', bold });
    ar(a, tx + 210, y - 2, MARGIN + WIDTH - (tx + 210), { bold });
    y += 18;
  }
  const qr = await QRCode.toBuffer(inv.zatcaQr, { type: 'png', margin: 1, width: 300, errorCorrectionLevel: 'M' });
  doc.image(qr, MARGIN, qrTop, { width: 150, height: 150 });
  y = Math.max(y, qrTop + 160);
  en('Amounts in Saudi riyals (SAR). This invoice was issued electronically.', MARGIN, y, WIDTH, { size: 8 });
  ar('المبالغ بالريال السعودي. صدرت هذه الفاتورة إلكترونياً.', MARGIN, y + 12, WIDTH, { size: 9 });
  doc.end();
  return done;
}
