import { useMemo, useState } from 'react';
import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { driverInput, driverUpdate, FLEET_LIMITS, ID_LENGTHS, SALUTATIONS, type Driver } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../components/NumberInput';
import { DocumentUpload, type DocumentRef } from '../../../components/DocumentUpload';
import { useSaveDriver } from '../api/fleet';
import { asLang } from '../utils/format';
import { useDatesLocale } from '../../../components/useDatesLocale';
import { nationalityOptions } from '../utils/nationalities';
import { opt, optNum } from '../utils/validate';
import { useFormErrors } from '../hooks/useFormErrors';
import { FormShell } from '../../../components/FormShell';

interface Values {
  salutation: string | null;
  firstName: string;
  lastName: string;
  nationality: string | null;
  dateOfBirth: string | null;
  phone: string;
  managerName: string;
  managerPhone: string;
  licenceNumber: string;
  driverIdNumber: string;
  iqamaIssueCount: number | string;
  companyCr: string;
  moiNumber: string;
  photo: DocumentRef[];
  iqama: DocumentRef[];
  licence: DocumentRef[];
}

const files = (l: { id: string; url: string; mime: string }[] | undefined) => (l ?? []).map((f) => ({ id: f.id, url: f.url, mime: f.mime }));
/** National SA number for the input (the API stores E.164). */
const localPhone = (p: string | null | undefined) => (p ? p.replace(/^\+966/, '0') : '');

/** The latest date of birth allowed today: 18 years ago (spec §5 minimum age 18). */
function latestBirthDate() {
  const d = new Date();
  return `${d.getFullYear() - FLEET_LIMITS.driverMinAge}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Add / edit a driver (spec §3 Driver, §5 Driver), validated with the shared driver schema. */
export function DriverForm({ driver, onDone, onCancel }: { driver?: Driver | null; onDone: (d: Driver) => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation('fleet');
  const lang = asLang(i18n.language);
  // the calendar's years, decades and days in the reader's language and digit system (issue 23)
  const datesLocale = useDatesLocale(lang);
  const [values, setValues] = useState<Values>(() => ({
    salutation: driver?.salutation ?? null,
    firstName: driver?.firstName ?? '',
    lastName: driver?.lastName ?? '',
    nationality: driver?.nationality ?? null,
    dateOfBirth: driver?.dateOfBirth ?? null,
    phone: localPhone(driver?.phone),
    managerName: driver?.managerName ?? '',
    managerPhone: localPhone(driver?.managerPhone),
    licenceNumber: driver?.licenceNumber ?? '',
    driverIdNumber: driver?.driverIdNumber ?? '',
    iqamaIssueCount: driver?.iqamaIssueCount ?? '',
    companyCr: driver?.companyCr ?? '',
    moiNumber: driver?.moiNumber ?? '',
    photo: driver?.photo ? files([driver.photo]) : [],
    iqama: files(driver?.iqamaFiles),
    licence: files(driver?.licenceFiles),
  }));
  const { errors, formError, setFormError, check, fail } = useFormErrors(lang, t('form.fixErrors'), t('error'));
  const save = useSaveDriver();
  const nationalities = useMemo(() => nationalityOptions(lang), [lang]);
  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((s) => ({ ...s, [k]: v }));

  const submit = async () => {
    setFormError(null);
    const payload = {
      salutation: values.salutation ?? undefined,
      firstName: values.firstName,
      lastName: values.lastName,
      nationality: values.nationality ?? undefined,
      dateOfBirth: values.dateOfBirth?.slice(0, 10) ?? undefined,
      phone: values.phone,
      managerName: opt(values.managerName),
      managerPhone: opt(values.managerPhone),
      licenceNumber: values.licenceNumber,
      driverIdNumber: values.driverIdNumber,
      iqamaIssueCount: optNum(values.iqamaIssueCount),
      companyCr: opt(values.companyCr),
      moiNumber: opt(values.moiNumber),
      photoFileId: values.photo[0]?.id,
      iqamaFileIds: values.iqama.map((f) => f.id),
      licenceFileIds: values.licence.map((f) => f.id),
    };
    if (!check(driver ? driverUpdate : driverInput, payload)) return;
    try {
      const saved = driver
        ? await save.mutateAsync({ id: driver.id, body: driverUpdate.parse(payload) })
        : await save.mutateAsync({ body: driverInput.parse(payload) });
      notifications.show({ color: 'masar', message: t('driver.saved') });
      onDone(saved);
    } catch (e) {
      fail(e, { MOI_EXISTS: 'moiNumber', DRIVER_EXISTS: 'driverIdNumber', PHONE_EXISTS: 'phone' });
    }
  };

  const text = (
    k: 'firstName' | 'lastName' | 'phone' | 'managerName' | 'managerPhone' | 'licenceNumber' | 'driverIdNumber' | 'companyCr' | 'moiNumber',
    extra: Record<string, unknown> = {},
  ) => (
    <TextInput
      label={t(`driver.${k}`)}
      value={values[k]}
      onChange={(e) => set(k, e.currentTarget.value)}
      error={errors[k]}
      data-testid={`driver-${k}`}
      {...extra}
    />
  );

  return (
    <FormShell
      onSubmit={submit}
      testId="driver-form"
      error={formError}
      submitLabel={driver ? t('save') : t('driver.add')}
      submitTestId="driver-submit"
      loading={save.isPending}
      cancelLabel={t('cancel')}
      onCancel={onCancel}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label={t('driver.salutation')}
          required
          data={SALUTATIONS.map((s) => ({ value: s, label: t(`salutation.${s}`) }))}
          value={values.salutation}
          onChange={(v) => set('salutation', v)}
          error={errors.salutation}
          data-testid="driver-salutation"
        />
        {text('firstName', { required: true })}
        {text('lastName', { required: true })}
        <Select
          label={t('driver.nationality')}
          required
          searchable
          data={nationalities}
          value={values.nationality}
          onChange={(v) => set('nationality', v)}
          error={errors.nationality}
          data-testid="driver-nationality"
        />
        <DatesProvider settings={{ locale: datesLocale }}>
          <DateInput
            label={t('driver.dateOfBirth')}
            description={t('driver.dobHint', { age: FLEET_LIMITS.driverMinAge })}
            required
            valueFormat="YYYY-MM-DD"
            maxDate={latestBirthDate()}
            defaultLevel="decade"
            value={values.dateOfBirth}
            onChange={(v) => set('dateOfBirth', v)}
            error={errors.dateOfBirth}
            data-testid="driver-dob"
          />
        </DatesProvider>
        {text('phone', { required: true, inputMode: 'tel', dir: 'ltr', placeholder: '05XXXXXXXX' })}
        {text('managerName')}
        {text('managerPhone', { inputMode: 'tel', dir: 'ltr', placeholder: '05XXXXXXXX' })}
        {text('licenceNumber', {
          required: true,
          description: t('driver.licenceHint', { min: ID_LENGTHS.licenceMin, max: ID_LENGTHS.licenceMax }),
          inputMode: 'numeric',
        })}
        {text('driverIdNumber', { required: true, description: t('driver.driverIdHint', { n: ID_LENGTHS.driverId, a: 1, b: 2 }), inputMode: 'numeric' })}
        <NumberInput
          label={t('driver.iqamaIssueCount')}
          description={t('driver.iqamaCountHint', { min: FLEET_LIMITS.iqamaIssueCountMin, max: FLEET_LIMITS.iqamaIssueCountMax })}
          allowDecimal={false}
          min={1}
          max={100}
          value={values.iqamaIssueCount}
          onChange={(v) => set('iqamaIssueCount', v)}
          error={errors.iqamaIssueCount}
        />
        {text('companyCr', { description: t('driver.crHint', { n: ID_LENGTHS.cr }), inputMode: 'numeric' })}
        {text('moiNumber', { description: t('driver.moiHint', { n: ID_LENGTHS.moi }), inputMode: 'numeric' })}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <DocumentUpload
          label={t('driver.photo')}
          purpose="driver-photo"
          accept="image/jpeg,image/png"
          max={1}
          value={values.photo}
          onChange={(v) => set('photo', v)}
          error={errors.photoFileId}
        />
        <DocumentUpload
          label={t('driver.iqamaFiles')}
          purpose="driver-iqama"
          value={values.iqama}
          onChange={(v) => set('iqama', v)}
          error={errors.iqamaFileIds}
        />
        <DocumentUpload
          label={t('driver.licenceFiles')}
          purpose="driver-licence"
          value={values.licence}
          onChange={(v) => set('licence', v)}
          error={errors.licenceFileIds}
        />
      </SimpleGrid>
    </FormShell>
  );
}
