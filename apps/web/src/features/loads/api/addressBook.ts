import { useQuery } from '@tanstack/react-query';
import type { SavedAddressList } from '@masar/shared';
import { api } from '../../../lib/api';

/** My address book (GET /account/addresses, issue 8) for the post form's "Pick from address book". */
export function useAddressBook() {
  return useQuery({ queryKey: ['account', 'addresses'], queryFn: () => api.get<SavedAddressList>('/account/addresses'), staleTime: 60_000 });
}
