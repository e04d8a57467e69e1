import { useState } from 'react';
import { SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { FLEET_LIMITS, ID_LENGTHS, vehicleInput, vehicleUpdate, type Vehicle } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { refName } from '../../../components/reference';
import { NumberInput } from '../../../components/NumberInput';
import { masar, unwrap } from '../../../lib/api';
import { DocumentUpload, type DocumentRef } from '../../../components/DocumentUpload';
import { EMPTY_PLATE, PlatePicker, type PlateValue } from '../../../components/PlatePicker';
import { useDriverOptions, useTrailerOptions, useSaveVehicle, useVehicleLink } from '../api/fleet';
import { asLang, driverName, useRoleBase } from '../utils/format';
import { opt, optNum } from '../utils/validate';
import { useFormErrors } from '../hooks/useFormErrors';
import { FormShell } from '../../../components/FormShell';
import { formatNumber } from '../../../components/format';

export function useEquipmentTypes() {
  return useQuery({
    queryKey: ['ref', 'equipmentTypes'],
    queryFn: () => unwrap(masar.GET('/api/v1/equipmentTypes')).then((d) => d.items),
    staleTime: Infinity,
  });
}

export function useVendorOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['vendors', 'options'],
    queryFn: () => unwrap(masar.GET('/api/v1/vendors', { params: { query: { limit: 100, status: 'verified' } } })).then((d) => d.items),
    enabled,
  });
}

interface Values {
  vehicleType: string | null;
  year: number | string;
  make: string;
  model: string;
  colour: string;
  plateType: number | null;
  plate: PlateValue;
  registrationNumber: string;
  sequenceNumber: string;
  imei: string;
  weightKg: number | string;
  source: 'own' | 'vendor';
  vendorId: string | null;
  driverId: string | null;
  trailerId: string | null;
  insurance: DocumentRef[];
  images: DocumentRef[];
}

function initial(v?: Vehicle | null): Values {
  return {
    vehicleType: v?.vehicleType ?? null,
    year: v?.year ?? '',
    make: v?.make ?? '',
    model: v?.model ?? '',
    colour: v?.colour ?? '',
    plateType: v?.plateType ?? null,
    plate: v?.plate ?? EMPTY_PLATE,
    registrationNumber: v?.registrationNumber ?? '',
    sequenceNumber: v?.sequenceNumber ?? '',
    imei: v?.imei ?? '',
    weightKg: v?.weightKg ?? '',
    source: v?.source ?? 'own',
    vendorId: v?.vendorId ?? null,
    driverId: v?.driverId ?? null,
    trailerId: v?.trailerId ?? null,
    insurance: v?.insuranceFiles.map((f) => ({ id: f.id, url: f.url, mime: f.mime })) ?? [],
    images: v?.imageFiles.map((f) => ({ id: f.id, url: f.url, mime: f.mime })) ?? [],
  };
}

/** Add / edit a vehicle (spec §3 Vehicle, §5 Vehicle), validated with the shared vehicle schema. */
export function VehicleForm({ vehicle, onDone, onCancel }: { vehicle?: Vehicle | null; onDone: (v: Vehicle) => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation('fleet');
  const lang = asLang(i18n.language);
  const [values, setValues] = useState<Values>(() => initial(vehicle));
  const { errors, formError, setFormError, check, fail } = useFormErrors(lang, t('form.fixErrors'), t('error'));
  const equipment = useEquipmentTypes();
  const drivers = useDriverOptions();
  const trailers = useTrailerOptions();
  const vendors = useVendorOptions(values.source === 'vendor');
  const save = useSaveVehicle();
  const link = useVehicleLink();
  const editing = !!vehicle;
  // Shippers keep own vehicles only (docs/fleet.md): vendor-sourced vehicles are for carriers and brokers.
  const canUseVendors = useRoleBase() !== '/shippers';

  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((s) => ({ ...s, [k]: v }));
  const err = (k: string) => errors[k];

  const submit = async () => {
    setFormError(null);
    const payload = {
      vehicleType: values.vehicleType ?? '',
      year: optNum(values.year),
      make: values.make,
      model: values.model,
      colour: values.colour,
      plateType: values.plateType ?? undefined,
      plate: values.plate,
      registrationNumber: opt(values.registrationNumber),
      sequenceNumber: values.sequenceNumber,
      imei: opt(values.imei),
      weightKg: optNum(values.weightKg),
      source: values.source,
      vendorId: values.source === 'vendor' ? (values.vendorId ?? undefined) : undefined,
      insuranceFileIds: values.insurance.map((f) => f.id),
      imageFileIds: values.images.map((f) => f.id),
      ...(editing ? {} : { driverId: values.driverId ?? undefined, trailerId: values.trailerId ?? undefined }),
    };
    if (!check(editing ? vehicleUpdate : vehicleInput, payload)) return;
    try {
      const saved = vehicle
        ? await save.mutateAsync({ id: vehicle.id, body: vehicleUpdate.parse(payload) })
        : await save.mutateAsync({ body: vehicleInput.parse(payload) });
      if (editing) {
        // Driver and trailer links change through their own endpoints.
        if (values.driverId !== vehicle.driverId)
          await link.mutateAsync(
            values.driverId ? { id: vehicle.id, action: 'assign-driver', body: { driverId: values.driverId } } : { id: vehicle.id, action: 'unassign-driver' },
          );
        if (values.trailerId !== vehicle.trailerId)
          await link.mutateAsync(
            values.trailerId ? { id: vehicle.id, action: 'link-trailer', body: { trailerId: values.trailerId } } : { id: vehicle.id, action: 'unlink-trailer' },
          );
      }
      notifications.show({ color: 'masar', message: t('vehicle.saved') });
      onDone(saved);
    } catch (e) {
      fail(e, {
        DUPLICATE_PLATE: 'plate',
        DRIVER_ALREADY_ASSIGNED: 'driverId',
        TRAILER_ALREADY_LINKED: 'trailerId',
        INVALID_VENDOR: 'vendorId',
      });
    }
  };

  const plateLettersError = err('plate') ?? err('plate.left') ?? err('plate.middle') ?? err('plate.right');
  const driverOptions = (drivers.data ?? []).filter((d) => !d.vehicleId || d.vehicleId === vehicle?.id).map((d) => ({ value: d.id, label: driverName(d) }));
  const trailerOptions = (trailers.data ?? [])
    .filter((x) => !x.vehicleId || x.vehicleId === vehicle?.id)
    .map((x) => ({ value: x.id, label: `${x.trailerNumber} · ${refName(equipment.data, x.trailerType, lang)}` }));

  return (
    <FormShell
      onSubmit={submit}
      testId="vehicle-form"
      error={formError}
      submitLabel={editing ? t('save') : t('vehicle.add')}
      submitTestId="vehicle-submit"
      loading={save.isPending || link.isPending}
      cancelLabel={t('cancel')}
      onCancel={onCancel}
    >
      <PlatePicker
        value={values.plate}
        onChange={(p) => set('plate', p)}
        plateType={values.plateType}
        onPlateTypeChange={(p) => set('plateType', p)}
        digitsError={err('plate.digits')}
        lettersError={plateLettersError}
        plateTypeError={err('plateType')}
        required
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label={t('vehicle.type')}
          required
          searchable
          data={(equipment.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }))}
          value={values.vehicleType}
          onChange={(v) => set('vehicleType', v)}
          error={err('vehicleType')}
          data-testid="vehicle-type"
        />
        <NumberInput
          label={t('vehicle.year')}
          required
          allowDecimal={false}
          value={values.year}
          onChange={(v) => set('year', v)}
          error={err('year')}
          data-testid="vehicle-year"
        />
        <TextInput
          label={t('vehicle.make')}
          required
          value={values.make}
          onChange={(e) => set('make', e.currentTarget.value)}
          error={err('make')}
          data-testid="vehicle-make"
        />
        <TextInput
          label={t('vehicle.model')}
          required
          value={values.model}
          onChange={(e) => set('model', e.currentTarget.value)}
          error={err('model')}
          data-testid="vehicle-model"
        />
        <TextInput
          label={t('vehicle.colour')}
          required
          value={values.colour}
          onChange={(e) => set('colour', e.currentTarget.value)}
          error={err('colour')}
          data-testid="vehicle-colour"
        />
        <NumberInput
          label={t('vehicle.weightKg')}
          description={t('vehicle.weightHint', {
            min: 0,
            max: formatNumber(FLEET_LIMITS.vehicleWeightMaxKg, lang),
            tons: FLEET_LIMITS.vehicleWeightMaxKg / 1000,
          })}
          required
          min={0}
          thousandSeparator=","
          value={values.weightKg}
          onChange={(v) => set('weightKg', v)}
          error={err('weightKg')}
          data-testid="vehicle-weight"
        />
        <TextInput
          label={t('vehicle.sequenceNumber')}
          description={t('vehicle.sequenceHint', { min: ID_LENGTHS.sequenceMin, max: ID_LENGTHS.sequenceMax })}
          required
          value={values.sequenceNumber}
          onChange={(e) => set('sequenceNumber', e.currentTarget.value)}
          error={err('sequenceNumber')}
          data-testid="vehicle-sequence"
        />
        <TextInput
          label={t('vehicle.registrationNumber')}
          value={values.registrationNumber}
          onChange={(e) => set('registrationNumber', e.currentTarget.value)}
          error={err('registrationNumber')}
        />
        <TextInput
          label={t('vehicle.imei')}
          description={t('vehicle.imeiHint', { n: ID_LENGTHS.imei })}
          inputMode="numeric"
          value={values.imei}
          onChange={(e) => set('imei', e.currentTarget.value)}
          error={err('imei')}
          data-testid="vehicle-imei"
        />
      </SimpleGrid>
      {canUseVendors && (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('vehicle.source')}
          </Text>
          <SegmentedControl
            value={values.source}
            onChange={(v) => set('source', v)}
            data={[
              { value: 'own', label: t('vehicle.sourceOwn') },
              { value: 'vendor', label: t('vehicle.sourceVendor') },
            ]}
            w="fit-content"
            data-testid="vehicle-source"
          />
        </Stack>
      )}
      {values.source === 'vendor' && (
        <Select
          label={t('vehicle.vendor')}
          required
          searchable
          data={(vendors.data ?? []).map((v) => ({ value: v.id, label: `${v.companyName} · ${v.vendorName}` }))}
          value={values.vendorId}
          onChange={(v) => set('vendorId', v)}
          error={err('vendorId')}
          nothingFoundMessage={t('vehicle.noVendors')}
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label={t('vehicle.driver')}
          description={t('vehicle.driverHint')}
          clearable
          searchable
          data={driverOptions}
          value={values.driverId}
          onChange={(v) => set('driverId', v)}
          error={err('driverId')}
          nothingFoundMessage={t('vehicle.noDrivers')}
          data-testid="vehicle-driver"
        />
        <Select
          label={t('vehicle.trailer')}
          clearable
          searchable
          data={trailerOptions}
          value={values.trailerId}
          onChange={(v) => set('trailerId', v)}
          error={err('trailerId')}
          nothingFoundMessage={t('vehicle.noTrailers')}
          data-testid="vehicle-trailer"
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <DocumentUpload
          label={t('vehicle.insurance')}
          purpose="vehicle-insurance"
          value={values.insurance}
          onChange={(v) => set('insurance', v)}
          error={err('insuranceFileIds')}
          testId="vehicle-insurance-input"
        />
        <DocumentUpload
          label={t('vehicle.images')}
          purpose="vehicle-image"
          accept="image/jpeg,image/png"
          value={values.images}
          onChange={(v) => set('images', v)}
          error={err('imageFileIds')}
          testId="vehicle-images-input"
        />
      </SimpleGrid>
    </FormShell>
  );
}
