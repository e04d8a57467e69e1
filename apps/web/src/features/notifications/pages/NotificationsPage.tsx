import { Alert, Button, Center, Container, Group, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { NOTIFICATION_CATEGORIES, type Notification, type NotificationCategory } from '@masar/shared';
import { useMarkRead, useNotificationPages, useUnreadCount } from '../api/notifications';
import { NotificationEntry } from '../components/NotificationEntry';
import { Loading } from '../../../components/Loading';

/** /{role}/notifications — my notifications: category filter, unread only, "load more", mark read (issue 21). */
export default function NotificationsPage() {
  const { t } = useTranslation('notifications');
  const [params, setParams] = useSearchParams();
  const cat = params.get('category');
  const category = NOTIFICATION_CATEGORIES.includes(cat as NotificationCategory) ? (cat as NotificationCategory) : undefined;
  const unreadOnly = params.get('unread') === '1';
  const pages = useNotificationPages({ category, unread: unreadOnly });
  const count = useUnreadCount();
  const mark = useMarkRead();
  const set = (k: string, v: string | null) => {
    const next = new URLSearchParams(params);
    if (v === null) next.delete(k);
    else next.set(k, v);
    setParams(next, { replace: true });
  };
  const items = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = count.data ?? 0;
  const onOpen = (n: Notification) => {
    if (!n.readAt) mark.mutate({ ids: [n.id] });
  };

  return (
    <Container size="sm" py="md">
      <Group justify="space-between" align="flex-end" mb="md" gap="xs">
        <div>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {t('title')}
          </Title>
          <Text c="dimmed" fz="sm" data-testid="unread-summary">
            {t('unreadCount', { count: unread })}
          </Text>
        </div>
        <Button variant="light" disabled={unread === 0 || mark.isPending} onClick={() => mark.mutate({ all: true })}>
          {t('markAllRead')}
        </Button>
      </Group>
      <Group mb="md" gap="md" align="flex-end" wrap="wrap">
        <Select
          label={t('category.label')}
          data={[{ value: 'all', label: t('category.all') }, ...NOTIFICATION_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))]}
          value={category ?? 'all'}
          onChange={(v) => set('category', !v || v === 'all' ? null : v)}
          allowDeselect={false}
          w={200}
        />
        <Switch label={t('unreadOnly')} checked={unreadOnly} onChange={(e) => set('unread', e.currentTarget.checked ? '1' : null)} mb={6} />
      </Group>
      {pages.isLoading ? (
        <Center p="xl">
          <Loading />
        </Center>
      ) : pages.isError ? (
        <Alert color="masarRed">{t('error')}</Alert>
      ) : items.length === 0 ? (
        <Text c="dimmed" ta="center" p="xl">
          {unreadOnly ? t('emptyUnread') : t('empty')}
        </Text>
      ) : (
        <Stack gap={4} component="section" aria-label={t('title')}>
          {items.map((n) => (
            <NotificationEntry key={n.id} n={n} onOpen={onOpen} />
          ))}
          {pages.hasNextPage && (
            <Center mt="sm">
              <Button variant="default" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
                {t('loadMore')}
              </Button>
            </Center>
          )}
        </Stack>
      )}
    </Container>
  );
}
