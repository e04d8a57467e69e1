import { useState } from 'react';
import { Alert, Badge, Button, Card, Center, Container, Group, Pagination, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconShieldCheck, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { masar, unwrap } from '../../../lib/api';
import { asLang, driverName, useRoleBase } from '../utils/format';
import { NATIONALITIES_BY_VALUE } from '../utils/nationalities';
import { SearchBox } from '../../../components/SearchBox';
import { Loading } from '../../../components/Loading';

const PAGE_SIZE = 24;

/** /{role}/trusted-drivers: drivers the shipper/broker marked as trusted, with search, add and remove. */
export default function TrustedDriversPage() {
  const { t, i18n } = useTranslation('fleet');
  const lang = asLang(i18n.language);
  const base = useRoleBase();
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [pick, setPick] = useState<string | null>(null);

  const list = useQuery({
    queryKey: ['fleet', 'trusted', debounced, page],
    queryFn: () =>
      unwrap(masar.GET('/api/v1/trusted-drivers', { params: { query: { search: debounced || undefined, limit: PAGE_SIZE, skip: (page - 1) * PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const candidates = useQuery({
    queryKey: ['fleet', 'options', 'driver'],
    queryFn: () => unwrap(masar.GET('/api/v1/drivers', { params: { query: { limit: 100, state: 'active' } } })).then((d) => d.items),
  });
  const add = useMutation({
    mutationFn: (driverId: string) => unwrap(masar.POST('/api/v1/trusted-drivers', { body: { driverId } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['fleet'] }),
  });
  const remove = useMutation({
    mutationFn: (driverId: string) => unwrap(masar.DELETE('/api/v1/trusted-drivers/{id}', { params: { path: { id: driverId } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['fleet'] }),
  });

  const run = async (p: Promise<unknown>, ok: string) => {
    try {
      await p;
      notifications.show({ color: 'masar', message: ok });
    } catch (e) {
      notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') });
    }
  };

  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  const options = (candidates.data ?? []).filter((d) => !d.trusted).map((d) => ({ value: d.id, label: `${driverName(d)} · ${d.phone}` }));

  return (
    <Container size="lg" py="md">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={2}>{t('trusted.title')}</Title>
        <Button component={Link} to={`${base}/fleet-management`} variant="subtle" leftSection={<IconArrowBackUp size={16} />}>
          {t('trusted.back')}
        </Button>
      </Group>
      <Text c="dimmed" mb="md">
        {t('trusted.intro')}
      </Text>
      <Group gap="xs" mb="md" align="flex-end" wrap="wrap">
        <SearchBox
          label={t('trusted.search')}
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          testId="trusted-search"
        />
        <Select
          placeholder={t('trusted.pick')}
          aria-label={t('trusted.pick')}
          searchable
          data={options}
          value={pick}
          onChange={setPick}
          style={{ flex: '1 1 14rem' }}
          data-testid="trusted-pick"
        />
        <Button
          leftSection={<IconShieldCheck size={16} />}
          disabled={!pick}
          loading={add.isPending}
          onClick={() => pick && void run(add.mutateAsync(pick), t('trusted.added')).then(() => setPick(null))}
          data-testid="trusted-add"
        >
          {t('trusted.add')}
        </Button>
      </Group>
      {list.isLoading ? (
        <Center py="xl">
          <Loading />
        </Center>
      ) : list.isError ? (
        <Alert color="red">{list.error.message}</Alert>
      ) : !list.data?.items.length ? (
        <Text c="dimmed" ta="center" py="xl" data-testid="trusted-empty">
          {t('trusted.empty')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {list.data.items.map((d) => {
            const nat = NATIONALITIES_BY_VALUE.get(d.nationality);
            return (
              <Card key={d.id} withBorder data-testid={`trusted-${d.id}`}>
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2}>
                    <Text fw={700}>{driverName(d)}</Text>
                    <Text size="sm" c="dimmed">
                      {nat ? (lang === 'ar' ? nat.ar : nat.en) : d.nationality}
                    </Text>
                    <Text size="sm">
                      <span dir="ltr">{d.phone}</span>
                    </Text>
                    <Text size="sm">
                      {t('driver.licenceShort')}: <bdi data-latin-digits>{d.licenceNumber}</bdi>
                    </Text>
                  </Stack>
                  <Badge color="masar" variant="light" leftSection={<IconShieldCheck size={12} />}>
                    {t('trusted.badge')}
                  </Badge>
                </Group>
                <Group justify="flex-end" mt="sm">
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={14} />}
                    loading={remove.isPending && remove.variables === d.id}
                    onClick={() => void run(remove.mutateAsync(d.id), t('trusted.removed'))}
                    data-testid="trusted-remove"
                  >
                    {t('trusted.remove')}
                  </Button>
                </Group>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
      {pages > 1 && (
        <Group justify="center" mt="md">
          <Pagination total={pages} value={page} onChange={setPage} />
        </Group>
      )}
    </Container>
  );
}
