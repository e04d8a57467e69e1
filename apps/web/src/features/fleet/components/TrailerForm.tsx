import { useState } from 'react';
import { MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FLEET_LIMITS, ID_LENGTHS, TRAILER_TYPES, toTrailerType, trailerInput, trailerUpdate, type Trailer } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../components/NumberInput';
import { useSaveTrailer } from '../api/fleet';
import { asLang } from '../utils/format';
import { optNum } from '../utils/validate';
import { useFormErrors } from '../hooks/useFormErrors';
import { useEquipmentTypes } from './VehicleForm';
import { FormShell } from '../../../components/FormShell';
import { formatNumber } from '../../../components/format';
import { refName } from '../../../components/reference';

interface Values {
  trailerType: string;
  trailerNumber: string;
  lengthCm: number | string;
  breadthCm: number | string;
  capacityKg: number | string;
  supportedVehicleTypes: string[];
}

/** Add / edit a trailer (spec §3 Trailer, §5 Trailer). Units cm and kg. */
export function TrailerForm({ trailer, onDone, onCancel }: { trailer?: Trailer | null; onDone: (t: Trailer) => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation('fleet');
  const lang = asLang(i18n.language);
  const [values, setValues] = useState<Values>(() => ({
    trailerType: trailer?.trailerType ?? '',
    trailerNumber: trailer?.trailerNumber ?? '',
    lengthCm: trailer?.lengthCm ?? '',
    breadthCm: trailer?.breadthCm ?? '',
    capacityKg: trailer?.capacityKg ?? '',
    supportedVehicleTypes: trailer?.supportedVehicleTypes ?? [],
  }));
  const { errors, formError, setFormError, check, fail } = useFormErrors(lang, t('form.fixErrors'), t('error'));
  const equipment = useEquipmentTypes();
  const save = useSaveTrailer();
  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((s) => ({ ...s, [k]: v }));
  const eqOptions = (equipment.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }));
  // trailer types are codes with the equipment's label (issue 23); a legacy text value stays selectable as typed
  const trailerTypeOptions = [
    ...TRAILER_TYPES.map((code) => ({ value: code, label: refName(equipment.data, code, lang) })),
    ...(values.trailerType && !toTrailerType(values.trailerType) ? [{ value: values.trailerType, label: values.trailerType }] : []),
  ];

  const submit = async () => {
    setFormError(null);
    const payload = { ...values, lengthCm: optNum(values.lengthCm), breadthCm: optNum(values.breadthCm), capacityKg: optNum(values.capacityKg) };
    if (!check(trailer ? trailerUpdate : trailerInput, payload)) return;
    try {
      const saved = trailer
        ? await save.mutateAsync({ id: trailer.id, body: trailerUpdate.parse(payload) })
        : await save.mutateAsync({ body: trailerInput.parse(payload) });
      notifications.show({ color: 'masar', message: t('trailer.saved') });
      onDone(saved);
    } catch (e) {
      fail(e, { DUPLICATE_TRAILER_NUMBER: 'trailerNumber' });
    }
  };

  /** A required measure (length, breadth, capacity) with its allowed range as the hint. */
  const measure = (
    k: 'lengthCm' | 'breadthCm' | 'capacityKg',
    hint: string,
    min: number,
    max: number,
    testId: string,
    extra: { thousandSeparator?: string } = {},
  ) => (
    <NumberInput
      label={t(`trailer.${k}`)}
      description={t(`trailer.${hint}`, { min: formatNumber(min, lang), max: formatNumber(max, lang) })}
      required
      {...extra}
      value={values[k]}
      onChange={(v) => set(k, v)}
      error={errors[k]}
      data-testid={testId}
    />
  );

  return (
    <FormShell
      onSubmit={submit}
      testId="trailer-form"
      error={formError}
      submitLabel={trailer ? t('save') : t('trailer.add')}
      submitTestId="trailer-submit"
      loading={save.isPending}
      cancelLabel={t('cancel')}
      onCancel={onCancel}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('trailer.number')}
          description={t('trailer.numberHint', { min: ID_LENGTHS.trailerNumberMin, max: ID_LENGTHS.trailerNumberMax })}
          required
          value={values.trailerNumber}
          onChange={(e) => set('trailerNumber', e.currentTarget.value)}
          error={errors.trailerNumber}
          data-testid="trailer-number"
        />
        <Select
          label={t('trailer.type')}
          required
          searchable
          data={trailerTypeOptions}
          value={values.trailerType || null}
          onChange={(v) => set('trailerType', v ?? '')}
          error={errors.trailerType}
          data-testid="trailer-type"
        />
        {measure('lengthCm', 'lengthHint', FLEET_LIMITS.trailerLengthMinCm, FLEET_LIMITS.trailerLengthMaxCm, 'trailer-length')}
        {measure('breadthCm', 'breadthHint', FLEET_LIMITS.trailerBreadthMinCm, FLEET_LIMITS.trailerBreadthMaxCm, 'trailer-breadth')}
        {measure('capacityKg', 'capacityHint', FLEET_LIMITS.trailerCapacityMinKg, FLEET_LIMITS.trailerCapacityMaxKg, 'trailer-capacity', {
          thousandSeparator: ',',
        })}
        <MultiSelect
          label={t('trailer.supportedVehicleTypes')}
          searchable
          data={eqOptions}
          value={values.supportedVehicleTypes}
          onChange={(v) => set('supportedVehicleTypes', v)}
          error={errors.supportedVehicleTypes}
        />
      </SimpleGrid>
    </FormShell>
  );
}
