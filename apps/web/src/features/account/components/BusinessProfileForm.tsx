import { useState } from 'react';
import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { businessProfileInput, type BusinessProfile, type BusinessProfileInput } from '@masar/shared';
import { DocumentUpload, type DocumentRef } from '../../../components/DocumentUpload';
import { DOCUMENT_MAX_MB } from '../../../components/transfer';
import { fieldErrors, notifySuccess, showApiError } from '../../../lib/form';
import { useSaveBusinessProfile } from '../api/profile';
import { AddressFields, detailsToBody, detailsValues, type AddressDetailsValues } from './AddressFields';

export interface BusinessProfileValues {
  companyName: string;
  crNumber: string;
  vatNumber: string;
  fax: string;
  website: string;
  logoFileId: string | null;
  cityId: number | null;
  districtId: string | null;
  addressDetails: AddressDetailsValues;
}

export const businessValues = (p: BusinessProfile): BusinessProfileValues => ({
  companyName: p.companyName,
  crNumber: p.crNumber ?? '',
  vatNumber: p.vatNumber ?? '',
  fax: p.fax ?? '',
  website: p.website ?? '',
  logoFileId: p.logo?.id ?? null,
  cityId: p.cityId,
  districtId: p.districtId == null ? null : String(p.districtId),
  addressDetails: detailsValues(p.addressDetails),
});

/** Form values → PUT /account/business-profile body (empty texts clear the field). */
export const businessBody = (v: BusinessProfileValues): BusinessProfileInput => ({
  companyName: v.companyName,
  crNumber: v.crNumber,
  vatNumber: v.vatNumber,
  fax: v.fax,
  website: v.website,
  logoFileId: v.logoFileId,
  cityId: v.cityId,
  districtId: v.districtId ? Number(v.districtId) : null,
  addressDetails: detailsToBody(v.addressDetails),
});

/**
 * The business profile section of the account page (issue 8; spec §3, §5): company name, CR
 * (10 digits), VAT (15 digits starting with 3), fax (7 digits), website, logo (PNG/JPG ≤ 5 MB)
 * and the national address. Checked with the shared schema before sending; the server's field
 * errors land on the same fields.
 */
export function BusinessProfileForm({ profile }: { profile: BusinessProfile }) {
  const { t, i18n } = useTranslation('profile');
  const save = useSaveBusinessProfile();
  const [logo, setLogo] = useState<DocumentRef[]>(profile.logo ? [{ ...profile.logo, name: t('business.logo', { mb: DOCUMENT_MAX_MB }) }] : []);
  const form = useForm<BusinessProfileValues>({
    mode: 'controlled',
    initialValues: businessValues(profile),
    validate: (values) => {
      const r = businessProfileInput.safeParse(businessBody(values));
      return r.success ? {} : fieldErrors(r.error.issues, i18n.language);
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(businessBody(values));
      form.setValues(businessValues(saved));
      form.resetDirty();
      notifySuccess(t('business.saved'));
    } catch (e) {
      showApiError(e, form);
    }
  });
  const values = form.getValues();
  const input = (name: 'companyName' | 'crNumber' | 'vatNumber' | 'fax' | 'website', extra: Record<string, unknown> = {}) => (
    <TextInput key={form.key(name)} label={t(`business.${name}`)} {...extra} {...form.getInputProps(name)} data-testid={`bp-${name}`} />
  );
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="business-profile">
      <Title order={2} size="h3">
        {t('business.title')}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {t('business.hint')}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {input('companyName', { withAsterisk: true, maxLength: 120 })}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {input('crNumber', { dir: 'ltr', inputMode: 'numeric', maxLength: 10 })}
            {input('vatNumber', { dir: 'ltr', inputMode: 'numeric', maxLength: 15 })}
            {input('fax', { dir: 'ltr', inputMode: 'numeric', maxLength: 7 })}
            {input('website', { dir: 'ltr', type: 'url', placeholder: 'https://' })}
          </SimpleGrid>
          <DocumentUpload
            label={t('business.logo', { mb: DOCUMENT_MAX_MB })}
            purpose="business-logo"
            accept="image/png,image/jpeg"
            max={1}
            value={logo}
            onChange={(v) => {
              setLogo(v);
              form.setFieldValue('logoFileId', v[0]?.id ?? null);
            }}
            error={form.errors.logoFileId as string | undefined}
            testId="bp-logo"
          />
          <Text fw={600} size="sm">
            {t('business.address')}
          </Text>
          <AddressFields form={form} cityId={values.cityId} district={values.addressDetails.district} errors={form.errors} />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} data-testid="bp-save">
              {t('common:actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
