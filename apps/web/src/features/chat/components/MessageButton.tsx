import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMessage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useOpenConversation } from '../api/chat';
import { openChat } from '../store';

/**
 * "Message the shipper" / "Message the carrier" (issue 21): opens (or finds) the conversation
 * about a load and shows it in the chat panel. `counterpartId`: the carrier, for the load's owner.
 * The server decides who may (parties, blocks, contact settings) and says why not.
 */
export default function MessageButton({ loadId, counterpartId, to }: { loadId: string; counterpartId?: string; to: 'shipper' | 'carrier' }) {
  const { t } = useTranslation('chat');
  const open = useOpenConversation();
  return (
    <Button
      variant="light"
      size="compact-sm"
      leftSection={<IconMessage size={16} />}
      loading={open.isPending}
      onClick={() =>
        open.mutate(
          { loadId, ...(counterpartId ? { counterpartId } : {}) },
          {
            onSuccess: (c) => openChat(c.id),
            onError: (e) => notifications.show({ color: 'red', message: e.message }),
          },
        )
      }
      data-testid={`message-${to}`}
    >
      {to === 'shipper' ? t('messageShipper') : t('messageCarrier')}
    </Button>
  );
}
