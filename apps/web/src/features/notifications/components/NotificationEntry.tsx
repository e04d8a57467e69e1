import { Box, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Notification } from '@masar/shared';
import { asLang, formatMoney, formatNumber } from '../../../components/format';
import { isolate } from '../../../components/bidi';
import { DateText } from '../../../components/Money';

/**
 * The text of a notification in the reader's language, from its type and params (namespace
 * `notifications`, key `type.<event type>`): the server stores no prose (docs/notifications.md).
 */
export function useNotificationText() {
  const { t, i18n } = useTranslation('notifications');
  const lang = asLang(i18n.language);
  return (n: Notification) => {
    const price = n.params.priceSar ?? n.params.amountSar ?? n.params.currentAvgSar;
    const change = Number(n.params.changePct);
    const vars = {
      // a rate alert's change, signed, in the reader's digits (e.g. +8.5%)
      change: Number.isFinite(change) ? isolate(`${change > 0 ? '+' : ''}${formatNumber(change, lang)}%`) : '',
      // a word joiner after the hyphen keeps a reference (LD-001054) on one line
      ref: isolate((n.referenceId ?? '').replace(/-/g, '-\u2060')),
      price: price !== undefined ? isolate(formatMoney(price, lang)) : '',
      step: typeof n.params.step === 'string' ? t(`step.${n.params.step}`) : '',
    };
    return t(`type.${n.type}`, { ...vars, defaultValue: t('type.fallback', vars) });
  };
}

/**
 * One notification: its text, when, an unread dot; a link to its screen (marks it read on the way).
 * `onOpen` runs before navigation (the popover closes, the entry is marked read).
 */
export function NotificationEntry({ n, onOpen }: { n: Notification; onOpen: (n: Notification) => void }) {
  const { t } = useTranslation('notifications');
  const text = useNotificationText();
  const unread = !n.readAt;
  return (
    <UnstyledButton
      component={Link}
      to={n.link}
      onClick={() => onOpen(n)}
      data-testid="notification-entry"
      data-unread={unread ? 'true' : 'false'}
      p="xs"
      style={{
        display: 'block',
        borderRadius: 'var(--mantine-radius-sm)',
        background: unread ? 'var(--mantine-color-default-hover)' : undefined,
      }}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Box
          aria-hidden
          mt={6}
          style={{ flex: 'none', width: 8, height: 8, borderRadius: '50%', background: unread ? 'var(--mantine-primary-color-filled)' : 'transparent' }}
        />
        <Box style={{ minWidth: 0 }}>
          <Text fz="sm" fw={unread ? 600 : 400}>
            {text(n)}
            {unread && <VisuallyHidden> — {t('unread')}</VisuallyHidden>}
          </Text>
          <DateText value={n.createdAt} compact fz="xs" c="dimmed" />
        </Box>
      </Group>
    </UnstyledButton>
  );
}
