import { Autocomplete, SimpleGrid, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { matchesSearch, normalizeSearch, type StopAddressInput } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { asLang } from '../../../components/format';
import { useRegions } from '../../../components/reference';
import { useDistricts } from '../api/profile';

/** The structured address of spec §3 as form strings (empty = not given). */
export type AddressDetailsValues = Required<{ [K in keyof StopAddressInput]: string }>;
export const emptyDetails = (): AddressDetailsValues => ({
  buildingNumber: '',
  streetName: '',
  district: '',
  region: '',
  zipCode: '',
  additionalNumber: '',
  unitNumber: '',
  businessName: '',
});
export const detailsValues = (d: StopAddressInput | null | undefined): AddressDetailsValues => ({ ...emptyDetails(), ...(d ?? {}) });
/** Form strings → the API's structured address: optional empty fields dropped; null when nothing is filled. */
export function detailsToBody(d: AddressDetailsValues): StopAddressInput | null {
  // the region alone is no address: the form fills it from the city
  if (!Object.entries(d).some(([k, v]) => k !== 'region' && v.trim())) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d)) if (v.trim() || ['buildingNumber', 'streetName', 'district', 'region', 'zipCode'].includes(k)) out[k] = v;
  return out as unknown as StopAddressInput;
}

// district (one field with the city's districts) and region (filled from the city) are not here
const FIELDS: [keyof AddressDetailsValues, number, boolean][] = [
  ['buildingNumber', 4, true],
  ['streetName', 100, true],
  ['zipCode', 5, true],
  ['additionalNumber', 4, false],
  ['unitNumber', 10, false],
  ['businessName', 100, false],
];

interface FormLike {
  getInputProps(path: string): GetInputPropsReturnType;
  key(path: string): string;
  setFieldValue(path: string, value: unknown): void;
}

/**
 * City, district and the structured (national) address, as the post form asks it (spec §3
 * "Address"). Field paths: `cityId`, `districtId` (a string id), `addressDetails.*`.
 *
 * Issue 23: ONE district field — the city's districts to pick from, or any text where the
 * district is not listed (the text goes to `addressDetails.district`; a picked district also sets
 * `districtId`). The region is filled from the city. `national: false` shows city and district
 * only (a light address).
 */
export function AddressFields({
  form,
  cityId,
  district,
  required = false,
  national = true,
  errors,
}: {
  form: FormLike;
  cityId: number | null;
  /** The district text (`addressDetails.district`). */
  district: string;
  required?: boolean;
  national?: boolean;
  errors: Record<string, unknown>;
}) {
  const { t, i18n } = useTranslation('profile');
  const lang = asLang(i18n.language);
  const districts = useDistricts(cityId);
  const regions = useRegions();
  const list = districts.data ?? [];
  const label = (d: { nameEn: string; nameAr: string }) => (lang === 'ar' ? d.nameAr : d.nameEn);
  // Both names, folded as people type Arabic (ة/ه, أ/ا, ى/ي …; issue 23): "الروضه" finds "حي الروضة".
  const names = new Map(list.map((d) => [label(d), `${d.nameAr} ${d.nameEn}`]));
  const pick = (text: string) => {
    form.setFieldValue('addressDetails.district', text);
    const folded = normalizeSearch(text);
    const hit = folded ? list.find((d) => normalizeSearch(d.nameAr) === folded || normalizeSearch(d.nameEn) === folded) : undefined;
    form.setFieldValue('districtId', hit ? String(hit.id) : null);
  };
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <CitySelect
          label={t('book.city')}
          withAsterisk={required}
          value={cityId}
          onChange={(id, city) => {
            form.setFieldValue('cityId', id);
            form.setFieldValue('districtId', null);
            form.setFieldValue('addressDetails.district', '');
            const region = city ? regions.data?.find((r) => r.id === city.regionId) : undefined;
            form.setFieldValue('addressDetails.region', region ? (lang === 'ar' ? region.nameAr : region.nameEn) : '');
          }}
          error={errors.cityId as string | undefined}
          data-testid="address-city"
        />
        <Autocomplete
          label={t('book.district')}
          description={cityId ? t('book.districtHint') : undefined}
          withAsterisk={required && national}
          data={list.map(label)}
          value={district}
          onChange={pick}
          disabled={!cityId}
          maxLength={100}
          filter={({ options, search }) => options.filter((o) => 'value' in o && matchesSearch(names.get(o.value) ?? o.label, search))}
          limit={50}
          error={(errors['addressDetails.district'] ?? errors.districtId) as string | undefined}
          data-testid="address-district"
        />
      </SimpleGrid>
      {national && <NationalAddressFields form={form} cityId={cityId} required={required} />}
    </>
  );
}

/** The national address's own fields (building number, street, zip, additional and unit numbers, business name) and the region, filled from the city. */
export function NationalAddressFields({ form, cityId, required = false }: { form: FormLike; cityId: number | null; required?: boolean }) {
  const { t } = useTranslation('profile');
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }}>
      {FIELDS.map(([f, max, req]) => (
        <TextInput
          key={form.key(`addressDetails.${f}`)}
          label={t(`address.${f}`)}
          withAsterisk={required && req}
          maxLength={max}
          {...form.getInputProps(`addressDetails.${f}`)}
          data-testid={`address-${f}`}
        />
      ))}
      <TextInput
        key={form.key('addressDetails.region')}
        label={t('address.region')}
        withAsterisk={required}
        maxLength={60}
        readOnly={!!cityId}
        {...form.getInputProps('addressDetails.region')}
        data-testid="address-region"
      />
    </SimpleGrid>
  );
}
