import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Vendor } from '@masar/shared';
import { api, type Query } from '../../../lib/api';

export type { Vendor };

export interface VendorFilters {
  search?: string;
  status?: string;
  userType?: string;
  page: number;
  pageSize: number;
}

const toQuery = (f: VendorFilters): Query => ({ search: f.search, status: f.status, userType: f.userType, limit: f.pageSize, skip: (f.page - 1) * f.pageSize });

export function useVendors(f: VendorFilters) {
  const q = toQuery(f);
  return useQuery({
    queryKey: ['vendors', 'list', q],
    queryFn: () => api.get<{ items: Vendor[]; total: number }>('/vendors', q),
    placeholderData: keepPreviousData,
  });
}

export function useVendorRequests(f: VendorFilters) {
  const q = toQuery(f);
  return useQuery({
    queryKey: ['vendors', 'requests', q],
    queryFn: () => api.get<{ items: Vendor[]; total: number }>('/vendor-requests', q),
    placeholderData: keepPreviousData,
  });
}

export function useVendor(id: string | null) {
  return useQuery({ queryKey: ['vendors', 'one', id], queryFn: () => api.get<Vendor>(`/vendors/${id}`), enabled: !!id && id !== 'new' });
}

export function useSaveVendor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string | null; body: unknown }) => (id ? api.patch<Vendor>(`/vendors/${id}`, body) : api.post<Vendor>('/vendors', body)),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['vendors'] }),
  });
}

export function useDeleteVendor() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: string) => api.delete(`/vendors/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: ['vendors'] }) });
}

export function useVendorRequestAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'review' | 'approve' | 'reject' }) => api.post<Vendor>(`/vendor-requests/${id}/${action}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['vendors'] }),
  });
}

export function createShareLink() {
  return api.post<{ url: string; token: string; expiresAt: string }>('/vendors/share-link');
}
