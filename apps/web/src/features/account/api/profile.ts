import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessProfileInput, ContactInfoInput, SavedAddressInput } from '@masar/shared';
import { masar, unwrap, idempotent } from '../../../lib/api';

/** The account area (issue 8): GET/PUT /account/business-profile, /account/contact-info, /account/addresses. */
export const ADDRESSES_KEY = ['account', 'addresses'] as const;

export function useBusinessProfile() {
  return useQuery({ queryKey: ['account', 'businessProfile'], queryFn: () => unwrap(masar.GET('/api/v1/account/business-profile')) });
}
export function useSaveBusinessProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BusinessProfileInput) => unwrap(masar.PUT('/api/v1/account/business-profile', { body })),
    onSuccess: (data) => qc.setQueryData(['account', 'businessProfile'], data),
  });
}

export function useContactInfo() {
  return useQuery({ queryKey: ['account', 'contactInfo'], queryFn: () => unwrap(masar.GET('/api/v1/account/contact-info')) });
}
export function useSaveContactInfo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactInfoInput) => unwrap(masar.PUT('/api/v1/account/contact-info', { body })),
    onSuccess: (data) => qc.setQueryData(['account', 'contactInfo'], data),
  });
}

export function useAddresses() {
  return useQuery({ queryKey: ADDRESSES_KEY, queryFn: () => unwrap(masar.GET('/api/v1/account/addresses')) });
}
/** Save (id: replace) an address. `key` is the Idempotency-Key of a create: keep it across retries. */
export function useSaveAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, key }: { id?: string; body: SavedAddressInput; key: string }) =>
      id
        ? unwrap(masar.PUT('/api/v1/account/addresses/{id}', { params: { path: { id } }, body }))
        : unwrap(masar.POST('/api/v1/account/addresses', { body, headers: idempotent(key) })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ADDRESSES_KEY }),
  });
}
export function useDeleteAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(masar.DELETE('/api/v1/account/addresses/{id}', { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ADDRESSES_KEY }),
  });
}

export interface District {
  id: number;
  cityId: number;
  nameEn: string;
  nameAr: string;
}
/** Districts of a city (GET /districts?cityId=), for the district select. */
export function useDistricts(cityId: number | null | undefined) {
  return useQuery({
    queryKey: ['ref', 'districts', cityId],
    queryFn: () => unwrap(masar.GET('/api/v1/districts', { params: { query: { cityId: cityId! } } })).then((d) => d.items),
    enabled: !!cityId,
    staleTime: 60 * 60_000,
  });
}
