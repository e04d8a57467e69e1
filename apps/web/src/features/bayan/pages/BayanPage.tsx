import { useState } from 'react';
import { Button, Card, Container, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPrinter, IconSearch } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BAYAN_TRIP_STATUSES, LIMITS } from '@masar/shared';
import { Link } from 'react-router';
import { asLang, formatDate } from '../../../components/format';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { downloadFile } from '../../../components/transfer';
import { masar } from '../../../lib/api';
import { showApiError } from '../../../lib/form';
import { BAYAN, fetchBayanPage, type BayanFilters } from '../api';
import { BayanStatusBadge } from '../components/BayanStatusBadge';
import { WaybillConfigForm } from '../components/WaybillConfigForm';
import { TableHead } from '../../../components/TableHead';

/**
 * /bayan (spec §2, §7 `/bayan/list`): the user's Bayan trips with filters (status, date range,
 * shipment reference or waybill number), newest first, "load more" through the keyset cursor;
 * and the waybill config (sender defaults) below.
 */
export default function BayanPage() {
  const { t, i18n } = useTranslation('bayan');
  const lang = asLang(i18n.language);
  const base = useRoleBase();
  const [draft, setDraft] = useState<BayanFilters>({});
  const [filters, setFilters] = useState<BayanFilters>({});
  const q = useInfiniteQuery({
    queryKey: [...BAYAN.list, filters],
    queryFn: ({ pageParam }) => fetchBayanPage(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const set = (k: keyof BayanFilters) => (v: string | null) => setDraft((d) => ({ ...d, [k]: v ?? undefined }));

  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Title order={2}>{t('title')}</Title>
        <Card withBorder padding="md">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setFilters(draft);
            }}
          >
            <Group align="flex-end" wrap="wrap">
              <Select
                label={t('filters.status')}
                clearable
                data={BAYAN_TRIP_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
                value={draft.status ?? null}
                onChange={set('status')}
                w={180}
              />
              <TextInput label={t('filters.reference')} value={draft.reference ?? ''} onChange={(e) => set('reference')(e.currentTarget.value)} w={200} />
              <TextInput type="date" label={t('filters.from')} value={draft.from ?? ''} onChange={(e) => set('from')(e.currentTarget.value)} />
              <TextInput type="date" label={t('filters.to')} value={draft.to ?? ''} onChange={(e) => set('to')(e.currentTarget.value)} />
              <Button type="submit" leftSection={<IconSearch size={16} />}>
                {t('filters.apply')}
              </Button>
            </Group>
          </form>
        </Card>
        {items.length === 0 && !q.isLoading ? (
          <Stack align="center" py="lg" gap="xs" data-testid="bayan-empty">
            <Text c="dimmed" ta="center">
              {t('empty', { tons: LIMITS.bayanMinWeightTons })}
            </Text>
            <Button variant="light" component={Link} to={rolePaths(base).myLoads}>
              {t('emptyAction')}
            </Button>
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={800}>
            <Table striped data-testid="bayan-table">
              <TableHead
                titles={[t('col.waybill'), t('col.shipment'), t('col.lane'), t('col.vehicle'), t('col.driver'), t('col.status'), t('col.created')]}
                last={null}
              />
              <Table.Tbody>
                {items.map((b) => (
                  <Table.Tr key={b.id}>
                    <Table.Td dir="ltr" style={{ textAlign: 'start' }}>
                      {b.waybillNumber ?? t('pendingNumber')}
                    </Table.Td>
                    <Table.Td dir="ltr" style={{ textAlign: 'start' }}>
                      {b.loadReferenceId}
                    </Table.Td>
                    <Table.Td>{lang === 'ar' ? `${b.fromAr} ← ${b.toAr}` : `${b.fromEn} → ${b.toEn}`}</Table.Td>
                    <Table.Td>{b.plateText}</Table.Td>
                    <Table.Td>{b.driverName}</Table.Td>
                    <Table.Td>
                      <BayanStatusBadge status={b.status} />
                    </Table.Td>
                    <Table.Td>{formatDate(b.createdAt, lang)}</Table.Td>
                    <Table.Td>
                      {b.tripId && (
                        <Button
                          size="xs"
                          variant="subtle"
                          leftSection={<IconPrinter size={14} />}
                          aria-label={t('printOf', { number: b.waybillNumber ?? b.tripId })}
                          onClick={() =>
                            void downloadFile(
                              masar.GET('/api/v1/bayan/trips/{id}/print', { params: { path: { id: b.id } }, parseAs: 'blob' }),
                              `bayan-${b.waybillNumber ?? b.tripId}.pdf`,
                            ).catch((e: unknown) => showApiError(e))
                          }
                        >
                          {t('print')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {q.hasNextPage && (
          <Group justify="center">
            <Button variant="light" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
              {t('more')}
            </Button>
          </Group>
        )}
        <WaybillConfigForm />
      </Stack>
    </Container>
  );
}
