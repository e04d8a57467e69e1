import { useCallback, useState } from 'react';
import { ActionIcon, Button, Group, Menu, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconEdit, IconEye, IconLink, IconPlayerPause, IconPlayerPlay, IconShieldCheck, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ShareDriverLinkModal } from './ShareDriverLink';
import { useFleetAction, useRegisterWasl, type FleetAction, type FleetKind, type FleetRow } from '../api/fleet';

/** Row menu: view, edit, suspend / reactivate, delete (with confirmation), share driver link. */
export function RowActions({ kind, row, onOpen }: { kind: FleetKind; row: FleetRow; onOpen: (mode: 'view' | 'edit') => void }) {
  const { t } = useTranslation('fleet');
  const action = useFleetAction();
  const closeShare = useCallback(() => setSharing(null), []);
  const [sharing, setSharing] = useState<{ id: string; phone: string } | null>(null);
  const [confirm, setConfirm] = useState<FleetAction | null>(null);
  const wasl = useRegisterWasl();
  const registerWasl = async () => {
    if (kind === 'trailer') return;
    try {
      const r = await wasl.mutateAsync({ kind, id: row.id });
      const status = t(`wasl.${r.waslStatus}`);
      notifications.show({
        color: r.waslStatus === 'not_verified' ? 'masarRed' : 'masar',
        title: `${t('wasl.short')}: ${status}`,
        message: r.reasons.length ? t('wasl.reasons', { reasons: r.reasons.join(', ') }) : status,
      });
    } catch (e) {
      notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') });
    }
  };

  const run = async (a: FleetAction) => {
    try {
      await action.mutateAsync({ kind, id: row.id, action: a });
      notifications.show({ color: 'masar', message: t(`done.${a}`) });
      setConfirm(null);
    } catch (e) {
      notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') });
    }
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('actions.menu')} data-testid={`row-actions-${row.id}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconEye size={16} />} onClick={() => onOpen('view')} data-testid="row-view">
            {t('actions.view')}
          </Menu.Item>
          <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => onOpen('edit')} data-testid="row-edit">
            {t('actions.edit')}
          </Menu.Item>
          {kind !== 'trailer' && row.state === 'active' && (row as { waslStatus?: string }).waslStatus !== 'verified' && (
            <Menu.Item leftSection={<IconShieldCheck size={16} />} onClick={() => void registerWasl()} data-testid="row-wasl">
              {t('actions.registerWasl')}
            </Menu.Item>
          )}
          {kind === 'driver' && (
            <Menu.Item
              leftSection={<IconLink size={16} />}
              onClick={() => setSharing({ id: row.id, phone: (row as { phone: string }).phone })}
              data-testid="row-share-link"
            >
              {t('actions.shareLink')}
            </Menu.Item>
          )}
          {row.state === 'suspended' ? (
            <Menu.Item leftSection={<IconPlayerPlay size={16} />} onClick={() => void run('activate')} data-testid="row-activate">
              {t('actions.activate')}
            </Menu.Item>
          ) : (
            <Menu.Item leftSection={<IconPlayerPause size={16} />} onClick={() => setConfirm('suspend')} data-testid="row-suspend">
              {t('actions.suspend')}
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirm('delete')} data-testid="row-delete">
            {t('actions.delete')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ShareDriverLinkModal driver={sharing} onClose={closeShare} />
      <Modal opened={!!confirm} onClose={() => setConfirm(null)} title={confirm ? t(`confirm.${confirm}Title`) : ''} centered>
        <Text mb="md">{confirm ? t(`confirm.${confirm}Text`, { kind: t(`kind.${kind}`) }) : ''}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirm(null)}>
            {t('cancel')}
          </Button>
          <Button
            color={confirm === 'delete' ? 'red' : 'yellow'}
            loading={action.isPending}
            onClick={() => confirm && void run(confirm)}
            data-testid="confirm-action"
          >
            {confirm ? t(`actions.${confirm}`) : ''}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
