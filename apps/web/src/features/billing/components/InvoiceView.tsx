import { useEffect, useState } from 'react';
import { Button, Divider, Group, Image, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconFileTypePdf, IconPrinter } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { VAT_RATE, type Invoice } from '@masar/shared';
import { asLang, formatDate, formatMoney, formatNumber, formatPercent } from '../../../components/format';
import { downloadFile } from '../../../components/transfer';
import { masar } from '../../../lib/api';
import { showApiError } from '../../../lib/form';

/**
 * A simplified tax invoice (ZATCA phase 1) in the user's language: seller and VAT number, buyer,
 * lines with VAT, totals, and the QR code of the server's TLV payload. Loaded lazily with the
 * QR library.
 */
export default function InvoiceView({ invoice }: { invoice: Invoice }) {
  const { t, i18n } = useTranslation('billing');
  const lang = asLang(i18n.language);
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    void QRCode.toDataURL(invoice.zatcaQr, { margin: 1, width: 180, errorCorrectionLevel: 'M' }).then(setQr);
  }, [invoice.zatcaQr]);
  return (
    <Stack gap="md" data-testid="invoice-view">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <div>
          <Text fw={700}>{t('billing.seller')}</Text>
          <Text>{lang === 'ar' ? invoice.seller.nameAr : invoice.seller.nameEn}</Text>
          <Text fz="sm">
            {t('billing.vatNumber')}: <bdi dir="ltr">{invoice.seller.vatNumber}</bdi>
          </Text>
          <Text fz="sm" c="dimmed">
            {invoice.seller.address}
          </Text>
        </div>
        <div>
          <Text fw={700}>{t('billing.buyer')}</Text>
          <Text>
            <bdi>{invoice.buyer.companyName}</bdi>
          </Text>
          <Text fz="sm">
            <bdi>{invoice.buyer.name}</bdi> · <bdi dir="ltr">{invoice.buyer.phone}</bdi>
          </Text>
          <Text fz="sm">
            <bdi dir="ltr">{invoice.number}</bdi> · {formatDate(invoice.issuedAt, lang)}
          </Text>
        </div>
      </SimpleGrid>
      <Table.ScrollContainer minWidth={560}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('billing.description')}</Table.Th>
              <Table.Th ta="end">{t('billing.qty')}</Table.Th>
              <Table.Th ta="end">{t('billing.unitPrice')}</Table.Th>
              <Table.Th ta="end">{t('checkout.subtotal')}</Table.Th>
              <Table.Th ta="end">{t('billing.lineVat')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.lines.map((l, i) => (
              <Table.Tr key={i}>
                <Table.Td>{l.description[lang]}</Table.Td>
                <Table.Td ta="end">{formatNumber(Number(l.quantity), lang, 3)}</Table.Td>
                <Table.Td ta="end">{formatMoney(l.unitPriceSar, lang)}</Table.Td>
                <Table.Td ta="end">{formatMoney(l.amountSar, lang)}</Table.Td>
                <Table.Td ta="end">{formatMoney(l.vatSar, lang)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Divider />
      <Group justify="space-between" align="flex-start">
        {qr && <Image src={qr} w={160} h={160} alt={t('billing.qrLabel', { number: invoice.number })} />}
        <Stack gap={4} miw={220}>
          <Group justify="space-between">
            <Text>{t('checkout.subtotal')}</Text>
            <Text>{formatMoney(invoice.subtotalSar, lang)}</Text>
          </Group>
          <Group justify="space-between">
            <Text>{t('checkout.vat', { rate: formatPercent(VAT_RATE, lang) })}</Text>
            <Text>{formatMoney(invoice.vatSar, lang)}</Text>
          </Group>
          <Group justify="space-between">
            <Text fw={700}>{t('checkout.total')}</Text>
            <Text fw={700} data-testid="invoice-total">
              {formatMoney(invoice.totalSar, lang)}
            </Text>
          </Group>
        </Stack>
      </Group>
      <Group>
        <Button
          leftSection={<IconFileTypePdf size={16} />}
          onClick={() =>
            void downloadFile(masar.GET('/api/v1/invoices/{id}/pdf', { params: { path: { id: invoice.id } }, parseAs: 'blob' }), `${invoice.number}.pdf`).catch(
              (e: unknown) => showApiError(e),
            )
          }
          data-testid="invoice-pdf"
        >
          {t('billing.pdf')}
        </Button>
        <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          {t('billing.print')}
        </Button>
      </Group>
    </Stack>
  );
}
