import { useCallback, useState, type ReactNode } from 'react';
import { Alert, Button, Drawer, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconLink, IconUnlink } from '@tabler/icons-react';
import { PLATE_TYPES, type Driver, type Trailer, type Vehicle } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { FileLink } from '../../../components/DocumentUpload';
import { PlatePreview } from '../../../components/PlatePicker';
import { useFleetItem, useVehicleLink, type FleetKind } from '../api/fleet';
import { digits } from '../../../lib/digits';
import { refName } from '../../../components/reference';
import { asLang, driverName, formatDay, formatNumber } from '../utils/format';
import { NATIONALITIES_BY_VALUE } from '../utils/nationalities';
import { DriverForm } from './DriverForm';
import { StateBadge, VehicleBadges } from './FleetList';
import { ShareDriverLinkModal } from './ShareDriverLink';
import { TrailerForm } from './TrailerForm';
import { useEquipmentTypes, VehicleForm } from './VehicleForm';
import { Loading } from '../../../components/Loading';

export interface DrawerState {
  kind: FleetKind;
  id: string; // 'new' to add
  mode: 'view' | 'edit';
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children === null || children === undefined || children === '' ? '—' : children}
      </Text>
    </Stack>
  );
}

function Files({ files }: { files: { id: string; url: string }[] }) {
  const { t } = useTranslation('fleet');
  if (!files.length) return <>—</>;
  return (
    <Stack gap={2}>
      {files.map((f, i) => (
        <FileLink key={f.id} url={f.url} name={t('upload.file', { n: i + 1 })} />
      ))}
    </Stack>
  );
}

function VehicleView({ v }: { v: Vehicle }) {
  const { t, i18n } = useTranslation('fleet');
  const lang = asLang(i18n.language);
  const eq = useEquipmentTypes();
  const link = useVehicleLink();
  const type = eq.data?.find((e) => e.code === v.vehicleType);
  const plateType = PLATE_TYPES.find((p) => p.id === v.plateType);
  const unlink = async (action: 'unassign-driver' | 'unlink-trailer') => {
    try {
      await link.mutateAsync({ id: v.id, action });
      notifications.show({ color: 'masar', message: t('done.updated') });
    } catch (e) {
      notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') });
    }
  };
  return (
    <Stack>
      <PlatePreview value={v.plate} plateType={v.plateType} />
      <Group gap={6}>
        <StateBadge state={v.state} />
        <VehicleBadges v={v} />
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Field label={t('vehicle.type')}>{type ? (lang === 'ar' ? type.nameAr : type.nameEn) : v.vehicleType}</Field>
        <Field label={t('plate.type')}>{plateType ? (lang === 'ar' ? plateType.ar : plateType.en) : v.plateType}</Field>
        <Field label={t('vehicle.make')}>{v.make}</Field>
        <Field label={t('vehicle.model')}>{v.model}</Field>
        <Field label={t('vehicle.year')}>{v.year ? digits(v.year) : ''}</Field>
        <Field label={t('vehicle.colour')}>{v.colour}</Field>
        <Field label={t('vehicle.weightKg')}>{formatNumber(v.weightKg, lang)}</Field>
        <Field label={t('vehicle.sequenceNumber')}>{v.sequenceNumber}</Field>
        <Field label={t('vehicle.registrationNumber')}>{v.registrationNumber}</Field>
        <Field label={t('vehicle.imei')}>{v.imei}</Field>
        <Field label={t('vehicle.source')}>{v.source === 'vendor' ? t('vehicle.sourceVendor') : t('vehicle.sourceOwn')}</Field>
        <Field label={t('vehicle.driver')}>
          <Group gap="xs">
            {v.driverName ?? t('none')}
            {v.driverId && (
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconUnlink size={12} />}
                onClick={() => void unlink('unassign-driver')}
                data-testid="vehicle-unassign-driver"
              >
                {t('vehicle.unassignDriver')}
              </Button>
            )}
          </Group>
        </Field>
        <Field label={t('vehicle.trailer')}>
          <Group gap="xs">
            {v.trailerNumber ?? t('none')}
            {v.trailerId && (
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconUnlink size={12} />}
                onClick={() => void unlink('unlink-trailer')}
                data-testid="vehicle-unlink-trailer"
              >
                {t('vehicle.unlinkTrailer')}
              </Button>
            )}
          </Group>
        </Field>
        <Field label={t('vehicle.insurance')}>
          <Files files={v.insuranceFiles} />
        </Field>
        <Field label={t('vehicle.images')}>
          <Files files={v.imageFiles} />
        </Field>
      </SimpleGrid>
      {(!v.driverId || !v.trailerId) && <Alert color="yellow">{t('vehicle.notForAssignment')}</Alert>}
    </Stack>
  );
}

function TrailerView({ tr }: { tr: Trailer }) {
  const { t, i18n } = useTranslation('fleet');
  const lang = asLang(i18n.language);
  const eq = useEquipmentTypes();
  return (
    <Stack>
      <StateBadge state={tr.state} />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Field label={t('trailer.number')}>{tr.trailerNumber}</Field>
        <Field label={t('trailer.type')}>{refName(eq.data, tr.trailerType, lang)}</Field>
        <Field label={t('trailer.lengthCm')}>{formatNumber(tr.lengthCm, lang)}</Field>
        <Field label={t('trailer.breadthCm')}>{formatNumber(tr.breadthCm, lang)}</Field>
        <Field label={t('trailer.capacityKg')}>{formatNumber(tr.capacityKg, lang)}</Field>
        <Field label={t('trailer.supportedVehicleTypes')}>
          {tr.supportedVehicleTypes.map((c) => refName(eq.data, c, lang)).join(lang === 'ar' ? '، ' : ', ')}
        </Field>
      </SimpleGrid>
    </Stack>
  );
}

function DriverView({ d }: { d: Driver }) {
  const { t, i18n } = useTranslation('fleet');
  const lang = asLang(i18n.language);
  const [sharing, setSharing] = useState(false);
  const closeShare = useCallback(() => setSharing(false), []);
  const nat = NATIONALITIES_BY_VALUE.get(d.nationality);
  return (
    <Stack>
      <ShareDriverLinkModal driver={sharing ? d : null} onClose={closeShare} />
      <Group justify="space-between">
        <StateBadge state={d.state} />
        <Button size="xs" variant="light" leftSection={<IconLink size={14} />} onClick={() => setSharing(true)} data-testid="driver-share-link">
          {t('actions.shareLink')}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Field label={t('driver.name')}>{`${t(`salutation.${d.salutation}`, { defaultValue: d.salutation })} ${driverName(d)}`}</Field>
        <Field label={t('driver.nationality')}>{nat ? (lang === 'ar' ? nat.ar : nat.en) : d.nationality}</Field>
        <Field label={t('driver.dateOfBirth')}>{formatDay(d.dateOfBirth, lang)}</Field>
        <Field label={t('driver.phone')}>
          <span dir="ltr">{d.phone}</span>
        </Field>
        <Field label={t('driver.managerName')}>{d.managerName}</Field>
        <Field label={t('driver.managerPhone')}>{d.managerPhone && <span dir="ltr">{d.managerPhone}</span>}</Field>
        {/* document numbers, shown as typed and as on the documents (e2e/digits.test.ts) */}
        <Field label={t('driver.licenceNumber')}>
          <bdi data-latin-digits>{d.licenceNumber}</bdi>
        </Field>
        <Field label={t('driver.driverIdNumber')}>
          <bdi data-latin-digits>{d.driverIdNumber}</bdi>
        </Field>
        <Field label={t('driver.iqamaIssueCount')}>{formatNumber(d.iqamaIssueCount, lang)}</Field>
        <Field label={t('driver.companyCr')}>{d.companyCr}</Field>
        <Field label={t('driver.moiNumber')}>{d.moiNumber}</Field>
        <Field label={t('driver.photo')}>{d.photo && <FileLink url={d.photo.url} name={t('driver.photo')} />}</Field>
        <Field label={t('driver.iqamaFiles')}>
          <Files files={d.iqamaFiles} />
        </Field>
        <Field label={t('driver.licenceFiles')}>
          <Files files={d.licenceFiles} />
        </Field>
      </SimpleGrid>
    </Stack>
  );
}

/** Add / edit / view drawer of one vehicle, trailer or driver; state lives in the URL. */
export function FleetDrawer({ state, onClose, onChange }: { state: DrawerState | null; onClose: () => void; onChange: (s: DrawerState | null) => void }) {
  const { t } = useTranslation('fleet');
  // Mantine mirrors the drawer side in RTL: "right" is the end side in both directions.
  const isNew = state?.id === 'new';
  const item = useFleetItem(state?.kind ?? null, state && !isNew ? state.id : null);
  const title = state ? t(`drawer.${isNew ? 'add' : state.mode}`, { kind: t(`kind.${state.kind}`) }) : '';
  const done = () => onClose();
  const cancel = () => (isNew || !state ? onClose() : onChange({ ...state, mode: 'view' }));

  let body: ReactNode = null;
  if (state && !isNew && item.isLoading) body = <Loading />;
  else if (state && !isNew && item.isError) body = <Alert color="red">{state.kind === 'vehicle' ? t('vehicle.loadError') : item.error.message}</Alert>;
  else if (state) {
    const rec = isNew ? null : (item.data ?? null);
    if (state.mode === 'edit' || isNew) {
      if (state.kind === 'vehicle') body = <VehicleForm key={rec?.id ?? 'new'} vehicle={rec as Vehicle | null} onDone={done} onCancel={cancel} />;
      else if (state.kind === 'trailer') body = <TrailerForm key={rec?.id ?? 'new'} trailer={rec as Trailer | null} onDone={done} onCancel={cancel} />;
      else body = <DriverForm key={rec?.id ?? 'new'} driver={rec as Driver | null} onDone={done} onCancel={cancel} />;
    } else if (rec) {
      body = (
        <Stack>
          {state.kind === 'vehicle' ? (
            <VehicleView v={rec as Vehicle} />
          ) : state.kind === 'trailer' ? (
            <TrailerView tr={rec as Trailer} />
          ) : (
            <DriverView d={rec as Driver} />
          )}
          <Group justify="flex-end">
            <Button leftSection={<IconEdit size={16} />} onClick={() => onChange({ ...state, mode: 'edit' })} data-testid="drawer-edit">
              {t('actions.edit')}
            </Button>
          </Group>
        </Stack>
      );
    }
  }

  return (
    <Drawer opened={!!state} onClose={onClose} title={<Text fw={700}>{title}</Text>} position="right" size="xl" data-testid="fleet-drawer">
      {body}
    </Drawer>
  );
}
