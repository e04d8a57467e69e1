import { ActionIcon, Menu } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * The common freight questions of each side, one tap into the composer (issue 21 "quick replies
 * for the common freight questions"). Keys of `quick.<side>` in the chat namespace, in the order
 * a trip asks them: before loading, at loading, on the way.
 */
export const QUICK_REPLIES = {
  carrier: ['ready', 'loadingTime', 'location', 'documents', 'onTheWay'],
  shipper: ['eta', 'plate', 'equipment', 'ready', 'delivered'],
} as const;

/** A menu of my side’s quick replies; `onPick` gets the text in the reader’s language (focus then goes where onPick puts it, not back to the menu button). */
export function QuickReplies({ side, disabled, onPick }: { side: 'shipper' | 'carrier'; disabled?: boolean; onPick: (text: string) => void }) {
  const { t } = useTranslation('chat');
  return (
    <Menu position="top-start" withinPortal shadow="md" returnFocus={false}>
      <Menu.Target>
        <ActionIcon size="lg" variant="subtle" disabled={disabled} aria-label={t('quickReplies')} data-testid="chat-quick">
          <IconBolt size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown maw={320}>
        <Menu.Label>{t('quickReplies')}</Menu.Label>
        {QUICK_REPLIES[side].map((k) => (
          <Menu.Item key={k} onClick={() => onPick(t(`quick.${side}.${k}`))} data-testid={`chat-quick-${k}`}>
            {t(`quick.${side}.${k}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
