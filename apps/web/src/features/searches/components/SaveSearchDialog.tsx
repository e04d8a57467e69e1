import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';

/**
 * The name dialog of "Save search" and "Rename": a name (1–80 characters), Save and Cancel. The
 * server's refusal (duplicate search exists, the cap) shows inside the dialog, which stays open.
 */
export function SaveSearchDialog(props: {
  opened: boolean;
  title: string;
  initialName?: string;
  busy?: boolean;
  error?: unknown;
  onCancel: () => void;
  onSave: (name: string) => void;
}) {
  const { t } = useTranslation('searches');
  const [name, setName] = useState(props.initialName ?? '');
  const trimmed = name.trim();
  const tooLong = trimmed.length > 80;
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title={props.title} data-testid="save-search-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (trimmed && !tooLong) props.onSave(trimmed);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('dialog.name')}
            placeholder={t('dialog.placeholder')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={tooLong ? t('dialog.tooLong', { max: 80 }) : undefined}
            data-autofocus
            data-testid="save-search-name"
          />
          {props.error instanceof ApiError && (
            <Alert color="masarRed" data-testid="save-search-error">
              {props.error.message}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={props.onCancel}>
              {t('dialog.cancel')}
            </Button>
            <Button type="submit" disabled={!trimmed || tooLong} loading={props.busy} data-testid="save-search-submit">
              {t('dialog.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
