import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/**
 * A list's search field (fleet, trusted drivers, vendors): the search icon, the label as both
 * placeholder and accessible name, and a share of the filter row's width.
 */
export function SearchBox({ label, value, onChange, testId }: { label: string; value: string; onChange: (value: string) => void; testId: string }) {
  return (
    <TextInput
      leftSection={<IconSearch size={16} />}
      placeholder={label}
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      style={{ flex: '1 1 14rem' }}
      data-testid={testId}
    />
  );
}
