import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { matchesSearch, type StopAddressInput } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { asLang } from '../../../components/format';
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
  if (!Object.values(d).some((v) => v.trim())) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d)) if (v.trim() || ['buildingNumber', 'streetName', 'district', 'region', 'zipCode'].includes(k)) out[k] = v;
  return out as unknown as StopAddressInput;
}

const FIELDS: [keyof AddressDetailsValues, number, boolean][] = [
  ['buildingNumber', 4, true],
  ['streetName', 100, true],
  ['district', 100, true],
  ['region', 60, true],
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
 * City, district of the city and the structured (national) address, as the post form asks it
 * (spec §3 "Address"). Field paths: `cityId`, `districtId` (a string id), `addressDetails.*`.
 */
export function AddressFields({
  form,
  cityId,
  districtId,
  required = false,
  errors,
}: {
  form: FormLike;
  cityId: number | null;
  districtId: string | null;
  required?: boolean;
  errors: Record<string, unknown>;
}) {
  const { t, i18n } = useTranslation('profile');
  const lang = asLang(i18n.language);
  const districts = useDistricts(cityId);
  const data = (districts.data ?? []).map((d) => ({ value: String(d.id), label: lang === 'ar' ? d.nameAr : d.nameEn }));
  // Both names, folded as people type Arabic (ة/ه, أ/ا, ى/ي …; issue 23): "الروضه" finds "حي الروضة".
  const names = new Map((districts.data ?? []).map((d) => [String(d.id), `${d.nameAr} ${d.nameEn}`]));
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <CitySelect
          label={t('book.city')}
          withAsterisk={required}
          value={cityId}
          onChange={(id) => {
            form.setFieldValue('cityId', id);
            form.setFieldValue('districtId', null);
          }}
          error={errors.cityId as string | undefined}
          data-testid="address-city"
        />
        <Select
          label={t('book.district')}
          data={data}
          value={districtId}
          onChange={(v) => form.setFieldValue('districtId', v)}
          disabled={!cityId}
          searchable
          filter={({ options, search }) => options.filter((o) => 'value' in o && matchesSearch(names.get(o.value) ?? o.label, search))}
          clearable
          error={errors.districtId as string | undefined}
          data-testid="address-district"
        />
      </SimpleGrid>
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
      </SimpleGrid>
    </>
  );
}
