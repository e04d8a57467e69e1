import type { ReactNode } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';

/**
 * The frame of an entity form (vehicle, trailer, driver, vendor…): a `noValidate` form that
 * runs `onSubmit` (the shared zod schema validates inside it), the fields stacked, the
 * form-level error (`data-testid="form-error"`) and the cancel/submit buttons at the end side.
 */
export function FormShell(props: {
  onSubmit: () => Promise<void> | void;
  testId: string;
  error?: string | null;
  submitLabel: string;
  submitTestId: string;
  loading?: boolean;
  cancelLabel?: string;
  onCancel?: () => void;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit();
      }}
      noValidate
      data-testid={props.testId}
    >
      <Stack gap="sm">
        {props.children}
        {props.error && (
          <Alert color="red" data-testid="form-error">
            {props.error}
          </Alert>
        )}
        <Group justify="flex-end">
          {props.onCancel && (
            <Button variant="default" onClick={props.onCancel}>
              {props.cancelLabel}
            </Button>
          )}
          <Button type="submit" loading={props.loading} data-testid={props.submitTestId}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
