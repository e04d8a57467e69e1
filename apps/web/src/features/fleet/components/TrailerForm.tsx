import { useState } from 'react';
import { MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FLEET_LIMITS, ID_LENGTHS, TRAILER_TYPES, toTrailerType, trailerInput, trailerUpdate, type Trailer } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../components/NumberInput';
import { useSaveTrailer } from '../api/fleet';
import { asLang } from '../utils/format';
import { optNum, validateWith, type FormErrors } from '../utils/validate';
import { useEquipmentTypes } from './VehicleForm';
import { apiFieldErrors } from '../../../lib/form';
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
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
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
    const checked = validateWith(trailer ? trailerUpdate : trailerInput, payload, lang);
    if (!checked.ok) {
      setErrors(checked.errors);
      setFormError(t('form.fixErrors'));
      return;
    }
    setErrors({});
    try {
      const saved = trailer
        ? await save.mutateAsync({ id: trailer.id, body: trailerUpdate.parse(payload) })
        : await save.mutateAsync({ body: trailerInput.parse(payload) });
      notifications.show({ color: 'masar', message: t('trailer.saved') });
      onDone(saved);
    } catch (e) {
      setErrors(apiFieldErrors(e, { DUPLICATE_TRAILER_NUMBER: 'trailerNumber' }));
      setFormError(e instanceof Error ? e.message : t('error'));
    }
  };

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
        <NumberInput
          label={t('trailer.lengthCm')}
          description={t('trailer.lengthHint', {
            min: formatNumber(FLEET_LIMITS.trailerLengthMinCm, lang),
            max: formatNumber(FLEET_LIMITS.trailerLengthMaxCm, lang),
          })}
          required
          value={values.lengthCm}
          onChange={(v) => set('lengthCm', v)}
          error={errors.lengthCm}
          data-testid="trailer-length"
        />
        <NumberInput
          label={t('trailer.breadthCm')}
          description={t('trailer.breadthHint', {
            min: formatNumber(FLEET_LIMITS.trailerBreadthMinCm, lang),
            max: formatNumber(FLEET_LIMITS.trailerBreadthMaxCm, lang),
          })}
          required
          value={values.breadthCm}
          onChange={(v) => set('breadthCm', v)}
          error={errors.breadthCm}
          data-testid="trailer-breadth"
        />
        <NumberInput
          label={t('trailer.capacityKg')}
          description={t('trailer.capacityHint', {
            min: formatNumber(FLEET_LIMITS.trailerCapacityMinKg, lang),
            max: formatNumber(FLEET_LIMITS.trailerCapacityMaxKg, lang),
          })}
          required
          thousandSeparator=","
          value={values.capacityKg}
          onChange={(v) => set('capacityKg', v)}
          error={errors.capacityKg}
          data-testid="trailer-capacity"
        />
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
