import { useQuery } from '@tanstack/react-query';

import { masar, unwrap } from '../../../lib/api';

/** My address book (GET /account/addresses, issue 8) for the post form's "Pick from address book". */
export function useAddressBook() {
  return useQuery({ queryKey: ['account', 'addresses'], queryFn: () => unwrap(masar.GET('/api/v1/account/addresses')), staleTime: 60_000 });
}
