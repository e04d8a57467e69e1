import { useEffect, useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Modal, Radio, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTruck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FLEET_LIMITS, type Load } from '@masar/shared';
import { DateText } from '../../../components/Money';
import { PlatePreview } from '../../../components/PlatePicker';
import { useAssign, useAssignment, useCompleteWithoutBayan, useUnassign, useVehiclesForAssignment } from '../api/assignment';

const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/**
 * Truck and driver of a booked shipment (issue 7; spec §2 delivery tracking): shows the assigned
 * vehicle, driver and trailer to the shipper and the awarded carrier; the carrier assigns one of
 * its ready vehicles (active, free, with driver and trailer) or unassigns it. Opens the assign
 * dialog by itself for `?action=assign` (More Options).
 */
export function AssignmentPanel({ load, isCarrier, fleetPath }: { load: Load; isCarrier: boolean; fleetPath: string }) {
  const completeQ = useCompleteWithoutBayan(load.id);
  const { t } = useTranslation('assignment');
  const [params, setParams] = useSearchParams();
  const q = useAssignment(load.id);
  const [open, setOpen] = useState(false);
  const [confirmOff, setConfirmOff] = useState(false);
  // exactly what More Options allow (no unassign once a Bayan trip exists)
  const canAssign = isCarrier && load.options.includes('assign');
  const canUnassign = isCarrier && load.options.includes('unassign');

  useEffect(() => {
    if (params.get('action') === 'assign' && canAssign) setOpen(true);
    if (params.get('action') === 'unassign' && canUnassign) setConfirmOff(true);
  }, [params, canAssign, canUnassign]);
  const close = () => {
    setOpen(false);
    setConfirmOff(false);
    if (params.get('action')) {
      params.delete('action');
      setParams(params, { replace: true });
    }
  };

  const a = q.data;
  return (
    <Card withBorder padding="md" mb="md" data-testid="assignment-panel">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          <Group gap={6} component="span">
            <IconTruck size={20} aria-hidden />
            {t('title')}
          </Group>
        </Title>
        <Group gap="xs">
          {canAssign && (
            <Button onClick={() => setOpen(true)} data-testid="assign-open">
              {t('assign')}
            </Button>
          )}
          {a && load.status === 'assigned' && !a.bayanRequired && a.deliveredAt && (
            <Button color="masar" loading={completeQ.isPending} onClick={() => completeQ.mutate()} data-testid="complete-shipment">
              {t('complete')}
            </Button>
          )}
          {canUnassign && (
            <Button variant="light" color="masarRed" onClick={() => setConfirmOff(true)} data-testid="unassign-open">
              {t('unassign')}
            </Button>
          )}
        </Group>
      </Group>
      {completeQ.error && (
        <Alert color="masarRed" mb="sm">
          {completeQ.error.message}
        </Alert>
      )}
      {a?.vehicle ? (
        <Stack gap="xs" data-testid="assignment-details">
          <Group gap="md" wrap="wrap">
            <PlatePreview value={a.vehicle.plate} plateType={a.vehicle.plateType} size="sm" />
            <Badge variant="dot" color={a.vehicle.waslStatus === 'verified' ? 'masar' : 'gray'}>
              {t('wasl', { status: t(`waslStatus.${a.vehicle.waslStatus}`, { defaultValue: a.vehicle.waslStatus }) })}
            </Badge>
          </Group>
          {a.driver && (
            <Text size="sm">
              {t('driver')}: <b>{a.driver.name}</b>{' '}
              <Anchor href={`tel:${a.driver.phone}`} dir="ltr">
                {a.driver.phone}
              </Anchor>
            </Text>
          )}
          {a.trailer && (
            <Text size="sm">
              {t('trailer')}: <bdi>{a.trailer.trailerNumber}</bdi>
            </Text>
          )}
          {a.assignedAt && (
            <Group gap={4}>
              <Text size="sm" c="dimmed">
                {t('assignedAt')}
              </Text>
              <DateText size="sm" c="dimmed" value={a.assignedAt} />
            </Group>
          )}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed" data-testid="assignment-none">
          {isCarrier ? t('noneCarrier') : t('noneShipper')}
        </Text>
      )}
      {open && <AssignDialog loadId={load.id} fleetPath={fleetPath} onClose={close} />}
      <UnassignDialog loadId={load.id} opened={confirmOff} onClose={close} />
    </Card>
  );
}

function AssignDialog({ loadId, fleetPath, onClose }: { loadId: string; fleetPath: string; onClose: () => void }) {
  const { t } = useTranslation('assignment');
  const vehicles = useVehiclesForAssignment(true);
  const assign = useAssign(loadId);
  const [choice, setChoice] = useState<string | null>(null);
  const [key] = useState(newKey);
  const submit = () => {
    if (!choice) return;
    assign.mutate(
      { vehicleId: choice, key },
      {
        onSuccess: () => {
          notifications.show({ color: 'masar', message: t('assigned') });
          onClose();
        },
      },
    );
  };
  const list = vehicles.data ?? [];
  return (
    <Modal opened onClose={onClose} title={t('dialogTitle')} size="lg">
      {vehicles.isSuccess && list.length === 0 ? (
        <Alert color="yellow" data-testid="no-vehicles">
          {t('noVehicles')}{' '}
          <Anchor component={Link} to={fleetPath}>
            {t('toFleet')}
          </Anchor>
        </Alert>
      ) : (
        <Radio.Group value={choice} onChange={setChoice} label={t('chooseVehicle')} name="vehicle">
          <Stack gap="xs" mt="xs">
            {list.map((v) => {
              // 3.5 t and over needs Bayan, and so WASL verification (the server refuses it too)
              const needsWasl = v.weightKg >= FLEET_LIMITS.waslMinWeightKg && v.waslStatus !== 'verified';
              return (
                <Radio.Card
                  key={v.id}
                  value={v.id}
                  p="sm"
                  disabled={needsWasl}
                  style={needsWasl ? { opacity: 0.6 } : undefined}
                  data-testid={`vehicle-option-${v.id}`}
                  data-ready={!needsWasl}
                >
                  <Group wrap="nowrap" gap="sm">
                    <Radio.Indicator />
                    <PlatePreview value={v.plate} plateType={v.plateType} size="sm" />
                    <Stack gap={0}>
                      <Text size="sm" fw={600}>
                        {v.make} {v.model} · {v.driverName ?? ''}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t('trailer')}: <bdi>{v.trailerNumber ?? '—'}</bdi> ·{' '}
                        {t('wasl', { status: t(`waslStatus.${v.waslStatus}`, { defaultValue: v.waslStatus }) })}
                      </Text>
                      {needsWasl && (
                        <Text size="xs" c="masarRed">
                          {t('needsWasl', { tons: FLEET_LIMITS.waslMinWeightKg / 1000 })}
                        </Text>
                      )}
                    </Stack>
                  </Group>
                </Radio.Card>
              );
            })}
          </Stack>
        </Radio.Group>
      )}
      {assign.error && (
        <Alert color="masarRed" mt="sm" data-testid="assign-error">
          {assign.error.message}
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button onClick={submit} disabled={!choice} loading={assign.isPending} data-testid="assign-confirm">
          {t('confirmAssign')}
        </Button>
      </Group>
    </Modal>
  );
}

function UnassignDialog({ loadId, opened, onClose }: { loadId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('assignment');
  const off = useUnassign(loadId);
  return (
    <Modal opened={opened} onClose={onClose} title={t('unassignTitle')}>
      <Text size="sm">{t('unassignText')}</Text>
      {off.error && (
        <Alert color="masarRed" mt="sm">
          {off.error.message}
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button color="masarRed" loading={off.isPending} onClick={() => off.mutate(undefined, { onSuccess: onClose })} data-testid="unassign-confirm">
          {t('unassign')}
        </Button>
      </Group>
    </Modal>
  );
}
