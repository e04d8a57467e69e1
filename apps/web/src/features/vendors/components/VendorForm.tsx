import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ActionIcon, Button, Divider, Group, MultiSelect, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  CONTACT_METHODS,
  ID_LENGTHS,
  LIMITS,
  PAYMENT_TERMS,
  paymentTermDays,
  VENDOR_LANGUAGES,
  VENDOR_SHIPMENT_TYPES,
  VENDOR_USER_TYPES,
  vendorInput,
  vendorUpdate,
  type Vendor,
} from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../components/NumberInput';
import { CitySelect } from '../../../components/CitySelect';
import { DocumentUpload, type DocumentRef } from '../../../components/DocumentUpload';
import { useEquipmentTypes, useRegions } from '../../../components/reference';
import { apiFieldErrors, zodValidate } from '../../../lib/form';
import type { VendorSave } from '../api/vendors';
import { FormShell } from '../../../components/FormShell';

type UserType = (typeof VENDOR_USER_TYPES)[number];

interface Values {
  userType: UserType;
  companyName: string;
  vendorName: string;
  phone: string;
  email: string;
  jobTitle: string;
  officeLocations: { cityId: number | null; address: string }[];
  notes: string;
  crNumber: string;
  tlNumber: string;
  vatNumber: string;
  paymentTerms: string | null;
  shipmentTypes: string[];
  regions: string[];
  preferredLanguages: string[];
  preferredContactMethod: string | null;
  numberOfTrucks: number | string;
  numberOfTrailers: number | string;
  fleetSize: number | string;
  fleetTypes: string[];
  equipmentTypes: string[];
  serviceArea: string;
  insurance: string;
  rateAgreement: string;
  pastExperience: string;
  paymentHistory: string;
  customsClearance: boolean;
  documents: DocumentRef[];
}

const s = (v: string | null | undefined) => v ?? '';
const opt = (v: string) => (v.trim() === '' ? undefined : v.trim());
const optNum = (v: number | string) => (v === '' ? undefined : v);

function initial(v?: Vendor | null): Values {
  return {
    userType: (v?.userType as UserType) ?? 'carrier',
    companyName: s(v?.companyName),
    vendorName: s(v?.vendorName),
    phone: v?.phone ? v.phone.replace(/^\+966/, '0') : '',
    email: s(v?.email),
    jobTitle: s(v?.jobTitle),
    officeLocations: v?.officeLocations.map((o) => ({ cityId: o.cityId, address: o.address })) ?? [],
    notes: s(v?.notes),
    crNumber: s(v?.crNumber),
    tlNumber: s(v?.tlNumber),
    vatNumber: s(v?.vatNumber),
    paymentTerms: v?.paymentTerms ?? null,
    shipmentTypes: v?.shipmentTypes ?? [],
    regions: (v?.regions ?? []).map(String),
    preferredLanguages: v?.preferredLanguages ?? [],
    preferredContactMethod: v?.preferredContactMethod ?? null,
    numberOfTrucks: v?.numberOfTrucks ?? '',
    numberOfTrailers: v?.numberOfTrailers ?? '',
    fleetSize: v?.fleetSize ?? '',
    fleetTypes: v?.fleetTypes ?? [],
    equipmentTypes: v?.equipmentTypes ?? [],
    serviceArea: s(v?.serviceArea),
    insurance: s(v?.insurance),
    rateAgreement: s(v?.rateAgreement),
    pastExperience: s(v?.pastExperience),
    paymentHistory: s(v?.paymentHistory),
    customsClearance: v?.customsClearance ?? false,
    documents: (v?.documentFileIds ?? []).map((id) => ({ id })),
  };
}

/** Values → the vendorInput body (optional blanks left out). */
function toPayload(v: Values, withDocuments: boolean) {
  return {
    userType: v.userType,
    companyName: v.companyName,
    vendorName: v.vendorName,
    phone: v.phone,
    email: v.email,
    jobTitle: opt(v.jobTitle),
    officeLocations: v.officeLocations.map((o) => ({ cityId: o.cityId ?? 0, address: o.address })),
    notes: opt(v.notes),
    crNumber: opt(v.crNumber),
    tlNumber: opt(v.tlNumber),
    vatNumber: opt(v.vatNumber),
    paymentTerms: v.paymentTerms ?? undefined,
    shipmentTypes: v.shipmentTypes,
    regions: v.regions.map(Number),
    preferredLanguages: v.preferredLanguages,
    preferredContactMethod: v.preferredContactMethod ?? undefined,
    numberOfTrucks: optNum(v.numberOfTrucks),
    numberOfTrailers: optNum(v.numberOfTrailers),
    fleetSize: optNum(v.fleetSize),
    fleetTypes: v.fleetTypes,
    equipmentTypes: v.equipmentTypes,
    serviceArea: opt(v.serviceArea),
    insurance: opt(v.insurance),
    rateAgreement: opt(v.rateAgreement),
    pastExperience: opt(v.pastExperience),
    paymentHistory: opt(v.paymentHistory),
    customsClearance: v.customsClearance,
    ...(withDocuments ? { documentFileIds: v.documents.map((d) => d.id) } : {}),
  };
}

/**
 * Vendor form with every field of the shared vendor schema (spec §3 Vendor, §5 Vendor). Used by
 * the owner (add / edit) and by the public vendor sign-up page (`publicMode`: no document
 * uploads, which need an account).
 */
export function VendorForm({
  vendor,
  submitLabel,
  onSubmit,
  onCancel,
  publicMode = false,
}: {
  vendor?: Vendor | null;
  submitLabel: string;
  onSubmit: (save: VendorSave) => Promise<unknown>;
  onCancel?: () => void;
  publicMode?: boolean;
}) {
  const { t, i18n } = useTranslation('vendors');
  const lang = i18n.language === 'ar' ? 'ar' : 'en';
  const [values, setValues] = useState<Values>(() => initial(vendor));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // the page's save (its own mutation, a notification, closing the drawer) as one mutation: its isPending is the button's loading state
  const save = useMutation({ mutationFn: onSubmit });
  const regions = useRegions();
  const equipment = useEquipmentTypes();
  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((x) => ({ ...x, [k]: v }));
  const eqOptions = (equipment.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }));
  const regionOptions = (regions.data ?? []).map((r) => ({ value: String(r.id), label: lang === 'ar' ? r.nameAr : r.nameEn }));
  const opts = (list: readonly string[], ns: string) => list.map((x) => ({ value: x, label: t(`${ns}.${x}`, { days: paymentTermDays(x) }) }));

  const submit = async () => {
    setFormError(null);
    const payload = toPayload(values, !publicMode);
    const errs = zodValidate(vendor ? vendorUpdate : vendorInput, () => lang)(payload);
    if (Object.keys(errs).length) {
      setErrors(errs);
      setFormError(t('form.fixErrors'));
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(vendor ? { id: vendor.id, body: vendorUpdate.parse(payload) } : { body: vendorInput.parse(payload) });
    } catch (e) {
      setErrors(apiFieldErrors(e, { VENDOR_EMAIL_EXISTS: 'email', EMAIL_EXISTS: 'email', VENDOR_PHONE_EXISTS: 'phone', PHONE_EXISTS: 'phone' }, lang));
      setFormError(e instanceof Error ? e.message : t('error'));
    }
  };

  const text = (
    k: 'companyName' | 'vendorName' | 'phone' | 'email' | 'jobTitle' | 'crNumber' | 'tlNumber' | 'vatNumber',
    extra: Record<string, unknown> = {},
  ) => (
    <TextInput
      label={t(`field.${k}`)}
      value={values[k]}
      onChange={(e) => set(k, e.currentTarget.value)}
      error={errors[k]}
      data-testid={`vendor-${k}`}
      {...extra}
    />
  );
  const area = (k: 'serviceArea' | 'insurance' | 'rateAgreement' | 'pastExperience' | 'paymentHistory', max: number) => (
    <Textarea
      label={t(`field.${k}`)}
      autosize
      minRows={2}
      maxRows={5}
      maxLength={max}
      value={values[k]}
      onChange={(e) => set(k, e.currentTarget.value)}
      error={errors[k]}
    />
  );
  const num = (k: 'numberOfTrucks' | 'numberOfTrailers' | 'fleetSize') => (
    <NumberInput label={t(`field.${k}`)} min={0} allowDecimal={false} value={values[k]} onChange={(v) => set(k, v)} error={errors[k]} />
  );

  return (
    <FormShell
      onSubmit={submit}
      testId="vendor-form"
      error={formError}
      submitLabel={submitLabel}
      submitTestId="vendor-submit"
      loading={save.isPending}
      cancelLabel={t('cancel')}
      onCancel={onCancel}
    >
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('field.userType')}
        </Text>
        <SegmentedControl
          value={values.userType}
          onChange={(v) => set('userType', v as UserType)}
          data={opts(VENDOR_USER_TYPES, 'userType')}
          w="fit-content"
          data-testid="vendor-userType"
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {text('companyName', { required: true })}
        {text('vendorName', { required: true })}
        {text('phone', { required: true, inputMode: 'tel', dir: 'ltr', placeholder: '05XXXXXXXX' })}
        {text('email', { required: true, type: 'email', dir: 'ltr' })}
        {text('jobTitle')}
        <Select
          label={t('field.preferredContactMethod')}
          clearable
          data={opts(CONTACT_METHODS, 'contact')}
          value={values.preferredContactMethod}
          onChange={(v) => set('preferredContactMethod', v)}
          error={errors.preferredContactMethod}
        />
      </SimpleGrid>

      <Divider label={t('section.offices')} labelPosition="left" />
      {values.officeLocations.map((o, i) => (
        <Group key={i} align="flex-start" gap="xs" wrap="wrap">
          <CitySelect
            label={t('field.city')}
            value={o.cityId}
            onChange={(id) =>
              set(
                'officeLocations',
                values.officeLocations.map((x, j) => (j === i ? { ...x, cityId: id } : x)),
              )
            }
            error={errors[`officeLocations.${i}.cityId`]}
            style={{ flex: '1 1 12rem' }}
          />
          <TextInput
            label={t('field.address')}
            value={o.address}
            onChange={(e) => {
              const address = e.currentTarget.value;
              set(
                'officeLocations',
                values.officeLocations.map((x, j) => (j === i ? { ...x, address } : x)),
              );
            }}
            error={errors[`officeLocations.${i}.address`]}
            style={{ flex: '2 1 14rem' }}
          />
          <ActionIcon
            mt={28}
            variant="subtle"
            color="red"
            aria-label={t('remove')}
            onClick={() =>
              set(
                'officeLocations',
                values.officeLocations.filter((_, j) => j !== i),
              )
            }
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {values.officeLocations.length < 10 && (
        <Button
          variant="light"
          size="xs"
          w="fit-content"
          leftSection={<IconPlus size={14} />}
          onClick={() => set('officeLocations', [...values.officeLocations, { cityId: null, address: '' }])}
        >
          {t('addOffice')}
        </Button>
      )}
      {errors.officeLocations && (
        <Text c="red" size="sm">
          {errors.officeLocations}
        </Text>
      )}

      <Divider label={t('section.business')} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {text('crNumber', { description: t('hint.cr', { n: ID_LENGTHS.cr }), inputMode: 'numeric' })}
        {text('vatNumber', { description: t('hint.vat', { n: ID_LENGTHS.vat }), inputMode: 'numeric' })}
        {text('tlNumber', { description: t('hint.tl', { min: ID_LENGTHS.tlMin, max: ID_LENGTHS.tlMax }) })}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label={t('field.paymentTerms')}
          clearable
          data={opts(PAYMENT_TERMS, 'paymentTerms')}
          value={values.paymentTerms}
          onChange={(v) => set('paymentTerms', v)}
          error={errors.paymentTerms}
        />
        <MultiSelect
          label={t('field.preferredLanguages')}
          data={opts(VENDOR_LANGUAGES, 'language')}
          value={values.preferredLanguages}
          onChange={(v) => set('preferredLanguages', v)}
          error={errors.preferredLanguages}
        />
        <MultiSelect
          label={t('field.shipmentTypes')}
          data={opts(VENDOR_SHIPMENT_TYPES, 'shipmentType')}
          value={values.shipmentTypes}
          onChange={(v) => set('shipmentTypes', v)}
          error={errors.shipmentTypes}
        />
        <MultiSelect
          label={t('field.regions')}
          searchable
          data={regionOptions}
          value={values.regions}
          onChange={(v) => set('regions', v)}
          error={errors.regions}
        />
      </SimpleGrid>

      <Divider label={t('section.fleet')} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {num('numberOfTrucks')}
        {num('numberOfTrailers')}
        {num('fleetSize')}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <MultiSelect
          label={t('field.fleetTypes')}
          searchable
          data={eqOptions}
          value={values.fleetTypes}
          onChange={(v) => set('fleetTypes', v)}
          error={errors.fleetTypes}
        />
        <MultiSelect
          label={t('field.equipmentTypes')}
          searchable
          data={eqOptions}
          value={values.equipmentTypes}
          onChange={(v) => set('equipmentTypes', v)}
          error={errors.equipmentTypes}
        />
      </SimpleGrid>
      <Switch label={t('field.customsClearance')} checked={values.customsClearance} onChange={(e) => set('customsClearance', e.currentTarget.checked)} />

      <Divider label={t('section.terms')} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {area('serviceArea', 250)}
        {area('insurance', 250)}
        {area('rateAgreement', 250)}
        {area('paymentHistory', 250)}
      </SimpleGrid>
      {area('pastExperience', 500)}
      <Textarea
        label={t('field.notes')}
        description={t('hint.notes', { count: values.notes.length, max: LIMITS.vendorNotesMax })}
        autosize
        minRows={2}
        value={values.notes}
        onChange={(e) => set('notes', e.currentTarget.value)}
        error={errors.notes}
        data-testid="vendor-notes"
      />
      {!publicMode && (
        <DocumentUpload
          label={t('field.documents')}
          purpose="vendor-document"
          value={values.documents}
          onChange={(v) => set('documents', v)}
          error={errors.documentFileIds}
        />
      )}
    </FormShell>
  );
}
