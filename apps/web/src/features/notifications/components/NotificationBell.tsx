import { ActionIcon, Button, Center, Divider, Group, Indicator, Loader, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Notification } from '@masar/shared';
import { asLang, formatNumber } from '../../../components/format';
import { useLatest, useMarkRead, useUnreadCount } from '../api/notifications';
import { NotificationEntry } from './NotificationEntry';

/** "99+" past 99, in the reader's digits. */
export function bellCount(n: number, lang: 'en' | 'ar'): string {
  return n > 99 ? `${formatNumber(99, lang)}+` : formatNumber(n, lang);
}

/**
 * The header bell (issue 21): the unread count (refreshed on focus and every 60 s until MQTT
 * lands), a popover with the latest 10, "mark all read" and a link to the notifications page.
 * `base`: the role's path prefix (/shippers, /carriers, /brokers).
 */
export default function NotificationBell({ base }: { base: string }) {
  const { t, i18n } = useTranslation('notifications');
  const lang = asLang(i18n.language);
  const [open, setOpen] = useState(false);
  const count = useUnreadCount();
  const latest = useLatest(10, open);
  const mark = useMarkRead();
  const unread = count.data ?? 0;
  const onOpen = (n: Notification) => {
    setOpen(false);
    if (!n.readAt) mark.mutate({ ids: [n.id] });
  };
  return (
    // the Indicator wraps the Popover (not its target): the target's ARIA (aria-expanded, aria-haspopup) belongs on the button
    <Indicator label={bellCount(unread, lang)} size={18} disabled={unread === 0} offset={4} color="masarRed" data-testid="bell-count" data-count={unread}>
      <Popover opened={open} onChange={setOpen} position="bottom-end" shadow="md" width={360} returnFocus>
        <Popover.Target>
          <ActionIcon variant="default" size="lg" onClick={() => setOpen((o) => !o)} aria-label={t('bellUnread', { count: unread })} data-testid="bell">
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="xs" maw="calc(100vw - 16px)">
          <Group justify="space-between" mb={4} px={4} wrap="nowrap">
            <Text fw={600}>{t('title')}</Text>
            <Button
              variant="subtle"
              size="compact-xs"
              disabled={unread === 0 || mark.isPending}
              onClick={() => mark.mutate({ all: true })}
              data-testid="mark-all-read"
            >
              {t('markAllRead')}
            </Button>
          </Group>
          <Divider mb={4} />
          <ScrollArea.Autosize mah={420}>
            {latest.isLoading ? (
              <Center p="md">
                <Loader size="sm" />
              </Center>
            ) : latest.data?.items.length ? (
              <Stack gap={2}>
                {latest.data.items.map((n) => (
                  <NotificationEntry key={n.id} n={n} onOpen={onOpen} />
                ))}
              </Stack>
            ) : (
              <Text c="dimmed" fz="sm" p="md" ta="center">
                {t('empty')}
              </Text>
            )}
          </ScrollArea.Autosize>
          <Divider my={4} />
          <Button component={Link} to={`${base}/notifications`} variant="subtle" fullWidth size="compact-sm" onClick={() => setOpen(false)}>
            {t('seeAll')}
          </Button>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
