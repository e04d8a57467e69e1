import { useState } from 'react';
import { Button, Center, Container, Group, Modal, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Truck } from '@masar/shared';
import { BackhaulList } from '../../../components/BackhaulList';
import { notifyError, notifySuccess } from '../../../components/notify';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { apiFieldErrors } from '../../../lib/form';
import { useMyTrucks, useMyVehicles, useSaveTruck, useTruckAction, useTruckBackhauls, type MyTrucksTab, type TruckAction } from '../api/trucks';
import { TruckCard } from '../components/TruckCard';
import { TruckForm, truckToForm } from '../components/TruckForm';
import { Loading } from '../../../components/Loading';

const TABS: MyTrucksTab[] = ['all', 'posted', 'unposted', 'expired'];

/** The actions each status offers (spec §2: unposted trucks can be reposted, duplicated or deleted). */
const ACTIONS: Record<Truck['status'], TruckAction[]> = {
  posted: ['unpost', 'duplicate', 'delete'],
  unposted: ['repost', 'duplicate', 'delete'],
  expired: ['duplicate', 'delete'],
  deleted: [],
};

/** /carriers/post-trucks, /brokers/post-trucks: post a truck, and my truck posts by tab with their actions. */
export default function PostTrucksPage() {
  const { t } = useTranslation('trucks');
  const [tab, setTab] = useState<MyTrucksTab>('all');
  const [editing, setEditing] = useState<Truck | 'new' | null>(null);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const list = useMyTrucks(tab);
  const vehicles = useMyVehicles(editing !== null);
  const save = useSaveTruck(editing && editing !== 'new' ? editing.id : null);
  const act = useTruckAction();
  const phone = useMediaQuery('(max-width: 768px)') ?? false;
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const paths = rolePaths(useRoleBase());
  // backhauls of a posted truck going to exactly one city (issue 19)
  const [backhaulsOf, setBackhaulsOf] = useState<Truck | null>(null);
  const [radius, setRadius] = useState(200);
  const backhauls = useTruckBackhauls(backhaulsOf?.id ?? null, radius);

  const close = () => {
    setEditing(null);
    save.reset();
    setKey(crypto.randomUUID());
  };

  return (
    <Container size="lg" py="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={2}>{t('post.title')}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="truck-new">
          {t('post.new')}
        </Button>
      </Group>
      <Tabs value={tab} onChange={(v) => setTab((v as MyTrucksTab) ?? 'all')} mb="md">
        <Tabs.List>
          {TABS.map((x) => (
            <Tabs.Tab key={x} value={x} data-testid={`truck-tab-${x}`}>
              {t(`post.tabs.${x}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {list.isPending ? (
        <Center py="xl">
          <Loading />
        </Center>
      ) : items.length === 0 ? (
        <Text c="dimmed">{t('post.empty')}</Text>
      ) : (
        <Stack gap="sm" data-testid="my-trucks">
          {items.map((truck) => (
            <TruckCard
              key={truck.id}
              truck={truck}
              actions={
                <Group gap="xs" mt={4} wrap="wrap">
                  {truck.status !== 'deleted' && (
                    <Button size="xs" variant="light" onClick={() => setEditing(truck)}>
                      {t('action.edit')}
                    </Button>
                  )}
                  {truck.status === 'posted' && !truck.anywhere && truck.destinationCities.length === 1 && truck.destinationRegions.length === 0 && (
                    <Button size="xs" variant="light" onClick={() => setBackhaulsOf(truck)} data-testid="truck-backhauls">
                      {t('action.backhauls')}
                    </Button>
                  )}
                  {ACTIONS[truck.status].map((a) => (
                    <Button
                      key={a}
                      size="xs"
                      variant={a === 'delete' ? 'subtle' : 'light'}
                      color={a === 'delete' ? 'red' : undefined}
                      loading={act.isPending && act.variables?.id === truck.id && act.variables.action === a}
                      onClick={() => act.mutate({ id: truck.id, action: a }, { onSuccess: (_d, _v) => notifySuccess(t(`action.${a}`)), onError: notifyError })}
                      data-testid={`truck-${a}`}
                    >
                      {t(`action.${a}`)}
                    </Button>
                  ))}
                </Group>
              }
            />
          ))}
          {list.hasNextPage && (
            <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
              {t('post.more')}
            </Button>
          )}
        </Stack>
      )}
      <Modal
        opened={backhaulsOf !== null}
        onClose={() => setBackhaulsOf(null)}
        title={t('backhauls.title', { ref: backhaulsOf?.referenceId ?? '' })}
        size="lg"
        fullScreen={phone}
      >
        {backhaulsOf && (
          <BackhaulList data={backhauls.data} loading={backhauls.isPending} error={backhauls.error} radius={radius} onRadius={setRadius} hrefOf={paths.load} />
        )}
      </Modal>
      <Modal opened={editing !== null} onClose={close} title={editing === 'new' ? t('post.new') : t('post.edit')} size="xl" fullScreen={phone}>
        {editing !== null && (
          <TruckForm
            initial={editing === 'new' ? undefined : truckToForm(editing)}
            editing={editing !== 'new'}
            vehicles={(vehicles.data ?? []).map((v) => ({ id: v.id, label: `${v.plateText} · ${v.vehicleType}` }))}
            busy={save.isPending}
            serverErrors={apiFieldErrors(save.error)}
            onCancel={close}
            onSubmit={(body) =>
              save.mutate(
                { body, key },
                {
                  onSuccess: () => {
                    notifySuccess(editing === 'new' ? (body.post === false ? t('post.saveUnposted') : t('post.submit')) : t('post.save'));
                    close();
                  },
                  onError: notifyError,
                },
              )
            }
          />
        )}
      </Modal>
    </Container>
  );
}
