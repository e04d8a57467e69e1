import { useState } from 'react';
import { ActionIcon, Anchor, FileButton, Group, Input, Loader, Stack, Text, Button } from '@mantine/core';
import { IconPaperclip, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { checkDocument, DOCUMENT_ACCEPT, DOCUMENT_MAX_MB, downloadLinked, uploadFile, type UploadedFile } from './transfer';

export interface DocumentRef {
  id: string;
  url?: string;
  name?: string;
  mime?: string;
}

/**
 * Link to an uploaded file. Files are served to their owner only (bearer token), so API paths
 * are fetched with the token and handed to the browser instead of being plain links.
 */
export function FileLink({ url, name }: { url: string; name: string }) {
  const api = url.startsWith('/api/v1/');
  return (
    <Anchor
      href={url}
      target="_blank"
      rel="noreferrer"
      size="sm"
      truncate
      onClick={(e) => {
        if (!api) return;
        e.preventDefault();
        void downloadLinked(url, name).catch(() => undefined);
      }}
    >
      {name}
    </Anchor>
  );
}

/**
 * Upload documents (PDF, JPG, PNG ≤ 5 MB — spec §5, checked here and again by magic bytes on
 * the server) through POST /files; the value is the list of uploaded files.
 */
export function DocumentUpload({
  label,
  purpose,
  value,
  onChange,
  max = 10,
  accept = DOCUMENT_ACCEPT,
  error,
  testId,
}: {
  label: string;
  purpose: string;
  value: DocumentRef[];
  onChange: (v: DocumentRef[]) => void;
  max?: number;
  accept?: string;
  error?: string;
  testId?: string;
}) {
  const { t } = useTranslation('fleet');
  // POST /files for each picked file, one after the other
  const upload = useMutation({
    mutationFn: async (picked: File[]) => {
      const done: UploadedFile[] = [];
      for (const f of picked) done.push({ ...(await uploadFile(f, purpose)), name: f.name });
      return done;
    },
  });
  const busy = upload.isPending;
  const [problem, setProblem] = useState<string | null>(null);

  const add = async (files: File[]) => {
    setProblem(null);
    const room = max - value.length;
    const picked = files.slice(0, Math.max(0, room));
    for (const f of picked) {
      const bad = checkDocument(f);
      if (bad) return setProblem(t(bad === 'type' ? 'upload.badType' : 'upload.tooLarge', { name: f.name, mb: DOCUMENT_MAX_MB }));
    }
    try {
      const done = await upload.mutateAsync(picked);
      onChange([...value, ...done.map((d) => ({ id: d.id, url: d.url, name: d.name, mime: d.mime }))]);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : t('error'));
    }
  };

  return (
    <Input.Wrapper label={label} description={t('upload.hint', { mb: DOCUMENT_MAX_MB })} error={problem ?? error}>
      <Stack gap={4} mt={4}>
        {value.map((d, i) => (
          <Group key={d.id} gap="xs" wrap="nowrap">
            <IconPaperclip size={14} />
            {d.url ? (
              <FileLink url={d.url} name={d.name ?? t('upload.file', { n: i + 1 })} />
            ) : (
              <Text size="sm" truncate>
                {d.name ?? t('upload.file', { n: i + 1 })}
              </Text>
            )}
            <ActionIcon size="sm" variant="subtle" color="gray" aria-label={t('upload.remove')} onClick={() => onChange(value.filter((x) => x.id !== d.id))}>
              <IconX size={14} />
            </ActionIcon>
          </Group>
        ))}
        {value.length < max && (
          <FileButton onChange={(f) => void add(f)} accept={accept} multiple inputProps={{ 'data-testid': testId } as Record<string, string>}>
            {(props) => (
              <Button
                {...props}
                variant="light"
                size="xs"
                leftSection={busy ? <Loader size={12} /> : <IconPaperclip size={14} />}
                disabled={busy}
                w="fit-content"
              >
                {t('upload.add')}
              </Button>
            )}
          </FileButton>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
