import { Alert, Badge, Button, Center, Container, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MY_LOADS_TABS, type Load, type MyLoadsTab } from '@masar/shared';
import { asLang, formatCount } from '../../../components/format';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { useMyLoads } from '../api/loads';
import { BookmarkButton, LoadOptionsMenu } from '../components/LoadOptionsMenu';
import { DisplayToggle } from '../components/DisplayToggle';
import { LoadList } from '../components/LoadList';
import { LoadsPager } from '../components/LoadsPager';

const PAGE_SIZE = 12;

/** /shippers/my-loads, /brokers/my-loads, /carriers/my-shipments: tabs with counts, owner actions, grid/line, pages. */
export default function MyLoadsPage() {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const [params, setParams] = useSearchParams();
  const base = useRoleBase();
  const paths = rolePaths(base);
  const tabParam = params.get('tab');
  const tab: MyLoadsTab = (MY_LOADS_TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as MyLoadsTab) : 'posted';
  const page = Math.max(1, Number(params.get('page')) || 1);
  // past the numbered pages: the keyset cursor (the API's nextCursor)
  const after = params.get('after') || null;
  const display = params.get('display') === 'line' ? 'line' : 'grid';
  const q = useMyLoads(tab, PAGE_SIZE, (page - 1) * PAGE_SIZE, after);

  const set = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch))
      if (v === null) next.delete(k);
      else next.set(k, v);
    setParams(next, { replace: true });
  };

  // More Options shows exactly the server's load.options for me; the star bookmarks
  const actionsOf = (l: Load) => (
    <Group gap={2} wrap="nowrap">
      <BookmarkButton load={l} />
      <LoadOptionsMenu load={l} />
    </Group>
  );

  const counts = q.data?.counts;
  const total = q.data?.total ?? 0;
  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md">
        <Title order={2}>{base === '/carriers' ? t('myLoads.titleCarrier') : t('myLoads.title')}</Title>
        <Group>
          <DisplayToggle value={display} onChange={(v) => set({ display: v === 'grid' ? null : v })} />
          {paths.canPost && (
            <Button component={Link} to={paths.postLoad} leftSection={<IconPlus size={16} />} data-testid="new-load">
              {t('myLoads.postLoad')}
            </Button>
          )}
        </Group>
      </Group>
      <Tabs value={tab} onChange={(v) => set({ tab: v ?? 'posted', page: null, after: null })} mb="md">
        <Tabs.List>
          {MY_LOADS_TABS.map((k) => (
            <Tabs.Tab
              key={k}
              value={k}
              data-testid={`tab-${k}`}
              rightSection={
                counts ? (
                  <Badge size="sm" variant="light" color={k === tab ? 'masar' : 'gray'}>
                    {formatCount(counts[k], q.data?.countsCapped[k], lang)}
                  </Badge>
                ) : undefined
              }
            >
              {t(`myLoads.tab.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {q.isLoading && (
        <Center h={200}>
          <Loader />
        </Center>
      )}
      {q.isError && <Alert color="masarRed">{q.error.message}</Alert>}
      {q.data && q.data.items.length === 0 && (
        <Stack align="center" py="xl" gap="xs">
          <Text c="dimmed">{t(`myLoads.empty.${tab}`)}</Text>
          {paths.canPost ? (
            <Button variant="light" component={Link} to={paths.postLoad}>
              {t('myLoads.postLoad')}
            </Button>
          ) : (
            <Button variant="light" component={Link} to={paths.search}>
              {t('myLoads.findLoads')}
            </Button>
          )}
        </Stack>
      )}
      {q.data && q.data.items.length > 0 && <LoadList loads={q.data.items} mode={display} hrefOf={(l) => paths.load(l.id)} showStatus actionsOf={actionsOf} />}
      {q.data && (
        <LoadsPager
          total={total}
          totalCapped={q.data.totalCapped}
          pageSize={PAGE_SIZE}
          page={page}
          after={after}
          nextCursor={q.data.nextCursor}
          onPage={(p) => set({ page: p > 1 ? String(p) : null, after: null })}
          onAfter={(c) => set({ page: null, after: c })}
        />
      )}
    </Container>
  );
}
