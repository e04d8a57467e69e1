import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessProfile, BusinessProfileInput, ContactInfo, ContactInfoInput, SavedAddress, SavedAddressInput, SavedAddressList } from '@masar/shared';
import { api } from '../../../lib/api';

/** The account area (issue 8): GET/PUT /account/business-profile, /account/contact-info, /account/addresses. */
export const ADDRESSES_KEY = ['account', 'addresses'] as const;

export function useBusinessProfile() {
  return useQuery({ queryKey: ['account', 'businessProfile'], queryFn: () => api.get<BusinessProfile>('/account/business-profile') });
}
export function useSaveBusinessProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BusinessProfileInput) => api.put<BusinessProfile>('/account/business-profile', body),
    onSuccess: (data) => qc.setQueryData(['account', 'businessProfile'], data),
  });
}

export function useContactInfo() {
  return useQuery({ queryKey: ['account', 'contactInfo'], queryFn: () => api.get<ContactInfo>('/account/contact-info') });
}
export function useSaveContactInfo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactInfoInput) => api.put<ContactInfo>('/account/contact-info', body),
    onSuccess: (data) => qc.setQueryData(['account', 'contactInfo'], data),
  });
}

export function useAddresses() {
  return useQuery({ queryKey: ADDRESSES_KEY, queryFn: () => api.get<SavedAddressList>('/account/addresses') });
}
/** Save (id: replace) an address. `key` is the Idempotency-Key of a create: keep it across retries. */
export function useSaveAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, key }: { id?: string; body: SavedAddressInput; key: string }) =>
      id ? api.put<SavedAddress>(`/account/addresses/${id}`, body) : api.post<SavedAddress>('/account/addresses', body, { idempotencyKey: key }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ADDRESSES_KEY }),
  });
}
export function useDeleteAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/account/addresses/${id}`),
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
    queryFn: () => api.get<{ items: District[] }>('/districts', { cityId: cityId! }).then((d) => d.items),
    enabled: !!cityId,
    staleTime: 60 * 60_000,
  });
}
