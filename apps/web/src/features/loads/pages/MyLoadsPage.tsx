import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Center, Container, Group, Loader, Menu, Modal, Pagination, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconCopy, IconDots, IconEye, IconPencil, IconPlus, IconTrash, IconUpload, IconArchive } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadTransition, MY_LOADS_TABS, type Load, type MyLoadsTab } from '@masar/shared';
import { asLang, formatCount } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../components/notify';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { useLoadAction, useMyLoads, type LoadAction } from '../api/loads';
import { DisplayToggle } from '../components/DisplayToggle';
import { LoadList } from '../components/LoadList';

const PAGE_SIZE = 12;

/** /shippers/my-loads, /brokers/my-loads, /carriers/my-shipments: tabs with counts, owner actions, grid/line, pages. */
export default function MyLoadsPage() {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const base = useRoleBase();
  const paths = rolePaths(base);
  const tabParam = params.get('tab');
  const tab: MyLoadsTab = (MY_LOADS_TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as MyLoadsTab) : 'posted';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const display = params.get('display') === 'line' ? 'line' : 'grid';
  const q = useMyLoads(tab, PAGE_SIZE, (page - 1) * PAGE_SIZE);
  const action = useLoadAction();
  const [toDelete, setToDelete] = useState<Load | null>(null);

  const set = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch))
      if (v === null) next.delete(k);
      else next.set(k, v);
    setParams(next, { replace: true });
  };

  const run = (load: Load, a: LoadAction) =>
    action.mutate(
      { id: load.id, action: a },
      {
        onSuccess: (res) => {
          notifySuccess(t(`myLoads.done.${a}`, { ref: load.referenceId }));
          setToDelete(null);
          if (a === 'duplicate' && res && typeof res === 'object' && 'id' in res) void navigate(`${paths.postLoad}?edit=${(res as Load).id}`);
        },
        onError: notifyError,
      },
    );

  const actionsOf = (l: Load) =>
    l.isMine === false ? null : (
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('myLoads.actions')} data-testid={`load-actions-${l.referenceId}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconEye size={16} />} component={Link} to={paths.load(l.id)}>
            {t('action.view')}
          </Menu.Item>
          {paths.canPost && (l.status === 'posted' || l.status === 'unposted' || l.status === 'expired') && (
            <Menu.Item leftSection={<IconPencil size={16} />} component={Link} to={`${paths.postLoad}?edit=${l.id}`} data-testid="action-edit">
              {t('action.edit')}
            </Menu.Item>
          )}
          {paths.canPost && (
            <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => run(l, 'duplicate')} data-testid="action-duplicate">
              {t('action.duplicate')}
            </Menu.Item>
          )}
          {l.status === 'posted' && (
            <Menu.Item leftSection={<IconArchive size={16} />} onClick={() => run(l, 'unpost')} data-testid="action-unpost">
              {t('action.unpost')}
            </Menu.Item>
          )}
          {(l.status === 'unposted' || l.status === 'expired') && (
            <Menu.Item leftSection={<IconUpload size={16} />} onClick={() => run(l, 'repost')} data-testid="action-repost">
              {t('action.repost')}
            </Menu.Item>
          )}
          {loadTransition(l.status, 'cancel') && (
            <>
              <Menu.Divider />
              <Menu.Item color="masarRed" leftSection={<IconTrash size={16} />} onClick={() => setToDelete(l)} data-testid="action-delete">
                {t('action.delete')}
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
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
      <Tabs value={tab} onChange={(v) => set({ tab: v ?? 'posted', page: null })} mb="md">
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
          {paths.canPost && (
            <Button variant="light" component={Link} to={paths.postLoad}>
              {t('myLoads.postLoad')}
            </Button>
          )}
        </Stack>
      )}
      {q.data && q.data.items.length > 0 && <LoadList loads={q.data.items} mode={display} hrefOf={(l) => paths.load(l.id)} showStatus actionsOf={actionsOf} />}
      {total > PAGE_SIZE && (
        <Center mt="lg">
          <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={(p) => set({ page: p > 1 ? String(p) : null })} />
        </Center>
      )}
      <Modal opened={!!toDelete} onClose={() => setToDelete(null)} title={t('myLoads.deleteTitle')} centered>
        <Text mb="md">{t('myLoads.deleteText', { ref: toDelete?.referenceId ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setToDelete(null)}>
            {t('action.cancel')}
          </Button>
          <Button color="masarRed" loading={action.isPending} onClick={() => toDelete && run(toDelete, 'delete')} data-testid="confirm-delete">
            {t('action.delete')}
          </Button>
        </Group>
      </Modal>
    </Container>
  );
}
