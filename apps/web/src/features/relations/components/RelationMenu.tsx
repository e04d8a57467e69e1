import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconBan, IconDots, IconStar, IconStarOff, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifySuccess, showApiError } from '../../../lib/form';
import { useRelationChange, useRelationStatus } from '../api/relations';

/**
 * The Favourite / Block menu of a company met on a load or an offer (issue 8; spec §6 "Users may
 * block or favourite shippers and brokers"; "Shipper and TMS: block or favourite carriers").
 * Blocking asks first (it hides both sides and closes the open offers). Renders nothing until
 * the status and the strings are there.
 */
export function RelationMenu({ userId, companyName }: { userId: string; companyName: string }) {
  const { t } = useTranslation('relations');
  const status = useRelationStatus(userId);
  const change = useRelationChange();
  const [confirm, setConfirm] = useState(false);
  const [reason, setReason] = useState('');
  if (!status.data) return null;
  const { favourite, blocked } = status.data;

  const run = async (kind: 'favourite' | 'blocked', add: boolean, done: string) => {
    try {
      await change.mutateAsync({ kind, userId, add, reason: kind === 'blocked' && add ? reason.trim() : undefined });
      notifySuccess(done);
      return true;
    } catch (e) {
      showApiError(e);
      return false;
    }
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('menu.label', { company: companyName })} data-testid="relation-menu">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {!blocked &&
            (favourite ? (
              <Menu.Item
                leftSection={<IconStarOff size={16} />}
                onClick={() => void run('favourite', false, t('menu.unfavourited'))}
                data-testid="relation-unfavourite"
              >
                {t('menu.unfavourite')}
              </Menu.Item>
            ) : (
              <Menu.Item
                leftSection={<IconStar size={16} />}
                onClick={() => void run('favourite', true, t('menu.favourited'))}
                data-testid="relation-favourite"
              >
                {t('menu.favourite')}
              </Menu.Item>
            ))}
          {blocked ? (
            <Menu.Item
              leftSection={<IconCircleCheck size={16} />}
              onClick={() => void run('blocked', false, t('blocked.unblocked'))}
              data-testid="relation-unblock"
            >
              {t('menu.unblock')}
            </Menu.Item>
          ) : (
            <Menu.Item color="masarRed" leftSection={<IconBan size={16} />} onClick={() => setConfirm(true)} data-testid="relation-block">
              {t('menu.block')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={confirm} onClose={() => setConfirm(false)} title={t('confirm.title', { company: companyName })} centered>
        <Stack gap="md">
          <Text size="sm">{t('confirm.body')}</Text>
          <Textarea
            label={t('confirm.reason')}
            description={t('confirm.reasonHint')}
            maxLength={300}
            autosize
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(false)}>
              {t('common:actions.cancel')}
            </Button>
            <Button
              color="masarRed"
              loading={change.isPending}
              data-testid="relation-block-confirm"
              onClick={async () => {
                if (await run('blocked', true, t('confirm.done', { company: companyName }))) setConfirm(false);
              }}
            >
              {t('confirm.submit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
