import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SavedAddress } from '@masar/shared';
import { useAddressBook } from '../api/addressBook';

/**
 * "Pick from address book" for one stop of the post form (issue 8): choosing a saved address
 * hands it to `onPick`, which fills the stop's city, address and structured address (the
 * district is part of the structured address). Renders nothing while the book is empty.
 */
export function AddressBookPicker({ onPick, testId }: { onPick: (a: SavedAddress) => void; testId?: string }) {
  const { t } = useTranslation('profile');
  const book = useAddressBook();
  const items = book.data?.items ?? [];
  if (!items.length) return null;
  return (
    <Select
      size="xs"
      label={t('picker.label')}
      placeholder={t('picker.placeholder')}
      nothingFoundMessage={t('picker.empty')}
      data={items.map((a) => ({ value: a.id, label: a.label }))}
      value={null}
      searchable
      onChange={(id) => {
        const a = items.find((x) => x.id === id);
        if (a) onPick(a);
      }}
      data-testid={testId}
      maw={320}
    />
  );
}
