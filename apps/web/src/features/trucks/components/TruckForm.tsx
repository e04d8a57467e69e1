import { useState } from 'react';
import { Button, Group, MultiSelect, Pill, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { createTruckBody, LOAD_TYPES, SEARCH_PICKUP_RADIUS_KM, type CreateTruckBody, type Truck } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { NumberInput } from '../../../components/NumberInput';
import { asLang, cityName, dayToIso, formatNumber } from '../../../components/format';
import { useCitiesByIds, useEquipmentTypes, useRegions } from '../../../components/reference';
import { useDatesLocale } from '../../../components/useDatesLocale';
import { fieldErrors } from '../../../lib/form';

/** What the truck form edits (strings and nulls as the inputs hold them). */
export interface TruckFormValues {
  loadType: 'FTL' | 'LTL';
  equipmentType: string | null;
  /** calendar days "YYYY-MM-DD" (Riyadh) */
  from: string | null;
  to: string | null;
  originCityId: number | null;
  originRadiusKm: number | null;
  anywhere: boolean;
  destinationCityIds: number[];
  destinationRegionIds: number[];
  minRateSar: string;
  rateBasis: 'trip' | 'km';
  capacityKg: number | '';
  pallets: number | '';
  spaceCm: number | '';
  vehicleId: string | null;
  comments: string;
}

export const emptyTruckForm = (): TruckFormValues => ({
  loadType: 'FTL',
  equipmentType: null,
  from: null,
  to: null,
  originCityId: null,
  originRadiusKm: null,
  anywhere: true,
  destinationCityIds: [],
  destinationRegionIds: [],
  minRateSar: '',
  rateBasis: 'trip',
  capacityKg: '',
  pallets: '',
  spaceCm: '',
  vehicleId: null,
  comments: '',
});

/** Riyadh calendar day of an ISO time. */
const riyadhDay = (iso: string) => new Date(Date.parse(iso) + 3 * 3_600_000).toISOString().slice(0, 10);

export const truckToForm = (t: Truck): TruckFormValues => ({
  loadType: t.loadType,
  equipmentType: t.equipmentType,
  from: riyadhDay(t.availableFrom),
  to: riyadhDay(t.availableTo),
  originCityId: t.origin.id,
  originRadiusKm: t.originRadiusKm,
  anywhere: t.anywhere,
  destinationCityIds: t.destinationCities.map((c) => c.id),
  destinationRegionIds: t.destinationRegions.map((r) => r.id),
  minRateSar: t.minRateSar,
  rateBasis: t.rateBasis,
  capacityKg: t.capacityKg,
  pallets: t.pallets ?? '',
  spaceCm: t.spaceCm ?? '',
  vehicleId: t.vehicle?.id ?? null,
  comments: t.comments ?? '',
});

/** The form's values as POST /truck's body (`post`: on the board now, or saved unposted). */
export function formToBody(v: TruckFormValues, post: boolean): CreateTruckBody {
  const num = (n: number | '') => (n === '' ? undefined : n);
  return {
    loadType: v.loadType,
    equipmentType: v.equipmentType ?? '',
    availableFrom: dayToIso(v.from) ?? '',
    availableTo: dayToIso(v.to ?? v.from, true),
    originCityId: v.originCityId ?? 0,
    ...(v.originRadiusKm ? { originRadiusKm: v.originRadiusKm } : {}),
    anywhere: v.anywhere,
    destinationCityIds: v.anywhere ? [] : v.destinationCityIds,
    destinationRegionIds: v.anywhere ? [] : v.destinationRegionIds,
    minRateSar: v.minRateSar,
    rateBasis: v.rateBasis,
    capacityKg: num(v.capacityKg) ?? 0,
    ...(v.loadType === 'LTL' && num(v.pallets) ? { pallets: num(v.pallets) } : {}),
    ...(v.loadType === 'LTL' && num(v.spaceCm) ? { spaceCm: num(v.spaceCm) } : {}),
    ...(v.vehicleId ? { vehicleId: v.vehicleId } : {}),
    ...(v.comments.trim() ? { comments: v.comments.trim() } : {}),
    post,
  };
}

interface Props {
  initial?: TruckFormValues;
  editing?: boolean;
  vehicles?: { id: string; label: string }[];
  busy?: boolean;
  /** Server-side field errors (from the API answer). */
  serverErrors?: Record<string, string>;
  onSubmit: (body: CreateTruckBody) => void;
  onCancel?: () => void;
}

/**
 * The truck post form (spec §2 post trucks, §3 truck post): FTL/LTL, availability, origin and
 * pickup radius, destinations (anywhere, cities, regions), minimum rate per trip or km,
 * equipment, capacity (+ pallets and deck length for LTL), a vehicle of my fleet, comments.
 * Checked with the shared createTruckBody schema before it is sent.
 */
export function TruckForm({ initial, editing = false, vehicles = [], busy, serverErrors = {}, onSubmit, onCancel }: Props) {
  const { t, i18n } = useTranslation('trucks');
  const lang = asLang(i18n.language);
  const datesLocale = useDatesLocale(lang);
  const [v, setV] = useState<TruckFormValues>(initial ?? emptyTruckForm());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const eq = useEquipmentTypes();
  const regions = useRegions();
  const destCities = useCitiesByIds(v.destinationCityIds);
  const set = (patch: Partial<TruckFormValues>) => setV((d) => ({ ...d, ...patch }));
  const err = (k: string) => errors[k] ?? serverErrors[k];

  const submit = (post: boolean) => {
    const body = formToBody(v, post);
    const r = createTruckBody.safeParse(body);
    if (!r.success) {
      setErrors(fieldErrors(r.error.issues, i18n.language));
      return;
    }
    setErrors({});
    onSubmit(body);
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit(true);
      }}
      data-testid="truck-form"
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('field.loadType')}
            </Text>
            <SegmentedControl value={v.loadType} onChange={(x) => set({ loadType: x })} data={[...LOAD_TYPES]} data-testid="truck-load-type" />
          </Stack>
          <Select
            label={t('field.equipment')}
            data={(eq.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }))}
            value={v.equipmentType}
            onChange={(x) => set({ equipmentType: x })}
            error={err('equipmentType')}
            searchable
            data-testid="truck-equipment"
          />
          <DatesProvider settings={{ locale: datesLocale }}>
            <DatePickerInput
              type="range"
              label={t('field.availability')}
              value={[v.from, v.to]}
              onChange={([from, to]) => set({ from: from ? from.slice(0, 10) : null, to: to ? to.slice(0, 10) : null })}
              allowSingleDateInRange
              valueFormat="DD/MM/YYYY"
              error={err('availableFrom') ?? err('availableTo')}
              data-testid="truck-dates"
            />
          </DatesProvider>
          <CitySelect
            label={t('field.origin')}
            value={v.originCityId}
            onChange={(id) => set({ originCityId: id })}
            error={err('originCityId')}
            data-testid="truck-origin"
          />
          <Select
            label={t('field.originRadius')}
            data={[
              { value: '', label: t('field.noRadius') },
              ...SEARCH_PICKUP_RADIUS_KM.map((km) => ({ value: String(km), label: `${formatNumber(km, lang)} ${t('field.perKm')}` })),
            ]}
            value={v.originRadiusKm ? String(v.originRadiusKm) : ''}
            onChange={(x) => set({ originRadiusKm: x ? Number(x) : null })}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Switch label={t('field.anywhere')} checked={v.anywhere} onChange={(e) => set({ anywhere: e.currentTarget.checked })} data-testid="truck-anywhere" />
        {!v.anywhere && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Stack gap={4}>
              <CitySelect
                label={t('field.addCity')}
                value={null}
                onChange={(id) => id && !v.destinationCityIds.includes(id) && set({ destinationCityIds: [...v.destinationCityIds, id] })}
                error={err('destinationCityIds')}
                data-testid="truck-destination-city"
              />
              <Group gap={4} aria-label={t('field.destinationCities')}>
                {v.destinationCityIds.map((id) => (
                  <Pill
                    key={id}
                    withRemoveButton
                    onRemove={() => set({ destinationCityIds: v.destinationCityIds.filter((x) => x !== id) })}
                    removeButtonProps={{ 'aria-label': t('action.remove') }}
                  >
                    {cityName(
                      destCities.data?.find((c) => c.id === id),
                      lang,
                    ) || id}
                  </Pill>
                ))}
              </Group>
            </Stack>
            <MultiSelect
              label={t('field.destinationRegions')}
              data={(regions.data ?? []).map((r) => ({ value: String(r.id), label: lang === 'ar' ? r.nameAr : r.nameEn }))}
              value={v.destinationRegionIds.map(String)}
              onChange={(x) => set({ destinationRegionIds: x.map(Number) })}
              error={err('destinationRegionIds')}
              searchable
            />
          </SimpleGrid>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            label={t('field.minRate')}
            inputMode="decimal"
            value={v.minRateSar}
            onChange={(e) => set({ minRateSar: e.currentTarget.value })}
            error={err('minRateSar')}
            data-testid="truck-rate"
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('field.rateBasis')}
            </Text>
            <SegmentedControl
              value={v.rateBasis}
              onChange={(x) => set({ rateBasis: x })}
              data={[
                { value: 'trip', label: t('field.perTrip') },
                { value: 'km', label: t('field.perKm') },
              ]}
            />
          </Stack>
          <NumberInput
            label={t('field.capacity')}
            value={v.capacityKg}
            onChange={(x) => set({ capacityKg: typeof x === 'number' ? x : '' })}
            min={0}
            error={err('capacityKg')}
            data-testid="truck-capacity"
          />
        </SimpleGrid>
        {v.loadType === 'LTL' && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <NumberInput
              label={t('field.pallets')}
              value={v.pallets}
              onChange={(x) => set({ pallets: typeof x === 'number' ? x : '' })}
              min={0}
              error={err('pallets')}
            />
            <NumberInput
              label={t('field.space')}
              value={v.spaceCm}
              onChange={(x) => set({ spaceCm: typeof x === 'number' ? x : '' })}
              min={0}
              error={err('spaceCm')}
            />
          </SimpleGrid>
        )}
        {vehicles.length > 0 && (
          <Select
            label={t('field.vehicle')}
            data={[{ value: '', label: t('field.noVehicle') }, ...vehicles.map((x) => ({ value: x.id, label: x.label }))]}
            value={v.vehicleId ?? ''}
            onChange={(x) => set({ vehicleId: x || null })}
            allowDeselect={false}
            data-testid="truck-vehicle"
          />
        )}
        <Textarea
          label={t('field.comments')}
          value={v.comments}
          onChange={(e) => set({ comments: e.currentTarget.value })}
          maxLength={140}
          error={err('comments')}
          autosize
          minRows={2}
        />
        <Group justify="flex-end" gap="sm" wrap="wrap">
          {onCancel && (
            <Button variant="subtle" onClick={onCancel}>
              {t('post.cancel')}
            </Button>
          )}
          {!editing && (
            <Button variant="default" onClick={() => submit(false)} loading={busy} data-testid="truck-save-unposted">
              {t('post.saveUnposted')}
            </Button>
          )}
          <Button type="submit" loading={busy} data-testid="truck-submit">
            {editing ? t('post.save') : t('post.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
