import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMessage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isolate } from '../../../components/bidi';
import { useOpenConversation } from '../api/chat';
import { openChat } from '../store';

interface Props {
  loadId: string;
  /** The carrier side, for the load's owner (a tender invitee, an offer's carrier, the booked carrier). */
  counterpartId?: string;
  to: 'shipper' | 'carrier';
  /** The other side's company: names the button ("Message Nahdi Transport") where several sit together. */
  company?: string;
  /** An icon with a tooltip, for rows and cards with little room (my shipments, tender invites). */
  compact?: boolean;
}

/**
 * "Message the shipper" / "Message the carrier" (issue 21): opens (or finds) the conversation
 * about a load and shows it in the chat panel. The server decides who may (parties, blocks,
 * contact settings) and says why not, shown as a toast.
 */
export default function MessageButton({ loadId, counterpartId, to, company, compact }: Props) {
  const { t } = useTranslation('chat');
  const open = useOpenConversation();
  const label = company ? t('messageCompany', { company: isolate(company) }) : to === 'shipper' ? t('messageShipper') : t('messageCarrier');
  const onClick = () =>
    open.mutate(
      { loadId, ...(counterpartId ? { counterpartId } : {}) },
      {
        onSuccess: (c) => openChat(c.id),
        onError: (e) => notifications.show({ color: 'red', message: e.message }),
      },
    );
  if (compact)
    return (
      <Tooltip label={label} withArrow>
        <ActionIcon variant="subtle" color="gray" aria-label={label} loading={open.isPending} onClick={onClick} data-testid={`message-${to}`}>
          <IconMessage size={18} />
        </ActionIcon>
      </Tooltip>
    );
  return (
    <Button variant="light" size="compact-sm" leftSection={<IconMessage size={16} />} loading={open.isPending} onClick={onClick} data-testid={`message-${to}`}>
      {label}
    </Button>
  );
}
