import { ActionIcon, Indicator } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { asLang } from '../../../components/format';
import { useChatUnread } from '../api/chat';
import { openChat, useChatPanel } from '../store';
import { unreadLabel } from './ChatPanel';

const ChatPanel = lazy(() => import('./ChatPanel'));

/** The header's chat button (issue 21): my unread messages, and the chat panel it opens. */
export default function ChatHeaderButton() {
  const { t, i18n } = useTranslation('chat');
  const lang = asLang(i18n.language);
  const unread = useChatUnread().data?.unread ?? 0;
  const { opened } = useChatPanel();
  return (
    <>
      <Indicator label={unreadLabel(unread, lang)} size={18} disabled={unread === 0} offset={4} color="masarRed" data-testid="chat-count" data-count={unread}>
        <ActionIcon variant="default" size="lg" onClick={() => openChat()} aria-label={t('headerUnread', { count: unread })} data-testid="chat-button">
          <IconMessages size={20} />
        </ActionIcon>
      </Indicator>
      {opened && (
        <Suspense fallback={null}>
          <ChatPanel />
        </Suspense>
      )}
    </>
  );
}
