import { useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { asLang } from '../../../components/format';
import { useDatesLocale } from '../../../components/useDatesLocale';
import type { Presence } from '../hooks/usePresence';

/** How often "Last seen 5 minutes ago" is written again. */
const REFRESH_MS = 30_000;

/**
 * The other side's presence under a thread's title (issue 21; docs/chat.md "Presence"): "Online"
 * («متصل الآن»), or "Last seen 5 minutes ago" («آخر ظهور منذ ٥ دقائق») — relative, dayjs in the
 * reader's language and digit system (the date pickers' locales, components/useDatesLocale.ts),
 * rewritten every 30 s. Nothing when the other side was never seen (or presence is hidden).
 */
export function PresenceLine({ presence, now }: { presence: Presence | null; now?: () => number }) {
  const { t, i18n } = useTranslation('chat');
  const locale = useDatesLocale(asLang(i18n.language));
  const [, tick] = useState(0);
  useEffect(() => {
    if (presence?.online || !presence?.lastSeenAt) return;
    const timer = setInterval(() => tick((n) => n + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, [presence?.online, presence?.lastSeenAt]);
  if (!presence || (!presence.online && !presence.lastSeenAt)) return null;
  if (presence.online)
    return (
      <Text fz="xs" c="dimmed" aria-live="polite" data-testid="chat-presence">
        {t('presence.online')}
      </Text>
    );
  const at = (now ?? Date.now)();
  // a last-seen a little ahead of this device's clock is "a few seconds ago", never "in a few seconds"
  const seen = dayjs(Math.min(new Date(presence.lastSeenAt!).getTime(), at));
  return (
    <Text fz="xs" c="dimmed" aria-live="polite" data-testid="chat-presence">
      {t('presence.lastSeen', { ago: seen.locale(locale).from(at) })}
    </Text>
  );
}
