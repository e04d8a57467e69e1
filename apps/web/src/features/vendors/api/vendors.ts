import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { VENDOR_STATUSES, VENDOR_USER_TYPES, type Vendor } from '@masar/shared';
import { masar, oneOf, unwrap, type BodyOf } from '../../../lib/api';

export type { Vendor };

export interface VendorFilters {
  search?: string;
  status?: string;
  userType?: string;
  page: number;
  pageSize: number;
}

const toQuery = (f: VendorFilters) => ({
  search: f.search,
  status: oneOf(VENDOR_STATUSES, f.status),
  userType: oneOf(VENDOR_USER_TYPES, f.userType),
  limit: f.pageSize,
  skip: (f.page - 1) * f.pageSize,
});

export function useVendors(f: VendorFilters) {
  const q = toQuery(f);
  return useQuery({
    queryKey: ['vendors', 'list', q],
    queryFn: () => unwrap(masar.GET('/api/v1/vendors', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
}

export function useVendorRequests(f: VendorFilters) {
  const q = toQuery(f);
  return useQuery({
    queryKey: ['vendors', 'requests', q],
    queryFn: () => unwrap(masar.GET('/api/v1/vendor-requests', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
}

export function useVendor(id: string | null) {
  return useQuery({
    queryKey: ['vendors', 'one', id],
    queryFn: () => unwrap(masar.GET('/api/v1/vendors/{id}', { params: { path: { id: id! } } })),
    enabled: !!id && id !== 'new',
  });
}

/** What the vendor form submits: an edit (PATCH /vendors/:id) or a new vendor (POST /vendors, or a public request). */
export type VendorSave = { id: string; body: BodyOf<'/api/v1/vendors/{id}', 'patch'> } | { id?: undefined; body: BodyOf<'/api/v1/vendors', 'post'> };

export function useSaveVendor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: VendorSave) =>
      v.id !== undefined
        ? unwrap(masar.PATCH('/api/v1/vendors/{id}', { params: { path: { id: v.id } }, body: v.body }))
        : unwrap(masar.POST('/api/v1/vendors', { body: v.body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['vendors'] }),
  });
}

export function useDeleteVendor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(masar.DELETE('/api/v1/vendors/{id}', { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['vendors'] }),
  });
}

export function useVendorRequestAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'review' | 'approve' | 'reject' }) =>
      unwrap(masar.POST(`/api/v1/vendor-requests/{id}/${action}`, { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['vendors'] }),
  });
}

/** POST /vendors/share-link → `{ url }`: a link a vendor opens to ask to join the user's vendors. */
export function useShareLink() {
  return useMutation({ mutationFn: () => unwrap(masar.POST('/api/v1/vendors/share-link')) });
}
