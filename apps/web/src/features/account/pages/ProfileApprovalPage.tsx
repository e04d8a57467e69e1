import { useState } from 'react';
import { Alert, Badge, Button, Card, Container, FileButton, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconClock, IconUpload, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Verification } from '@masar/shared';
import { FileLink } from '../../../components/DocumentUpload';
import { checkDocument, DOCUMENT_ACCEPT, DOCUMENT_MAX_MB, uploadFile } from '../../../components/transfer';
import { masar, unwrap } from '../../../lib/api';
import { notifySuccess, showApiError } from '../../../lib/form';

const KEY = ['verification'];
const STATE_COLOR = { not_uploaded: 'gray', submitted: 'blue', approved: 'masar', rejected: 'masarRed' } as const;

type Doc = Verification['documents'][number];

function DocumentRow({ doc, locked }: { doc: Doc; locked: boolean }) {
  const { t } = useTranslation('verification');
  const qc = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const attach = useMutation({
    // POST /files, then PUT the stored file as this document
    mutationFn: async (file: File) => {
      const uploaded = await uploadFile(file, 'business-document');
      return unwrap(masar.PUT('/api/v1/profile-approval/documents/{type}', { params: { path: { type: doc.type } }, body: { fileId: uploaded.id } }));
    },
  });
  const busy = attach.isPending;
  const pick = async (file: File | null) => {
    if (!file) return;
    setProblem(null);
    const bad = checkDocument(file);
    if (bad) return setProblem(t(bad === 'type' ? 'badType' : 'tooLarge', { mb: DOCUMENT_MAX_MB }));
    try {
      const next = await attach.mutateAsync(file);
      qc.setQueryData(KEY, next);
      notifySuccess(t('saved'));
    } catch (e) {
      showApiError(e);
    }
  };
  return (
    <Card withBorder radius="md" padding="md" data-testid={`doc-${doc.type}`}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600}>{t(`type.${doc.type}`)}</Text>
            <Badge variant="light" color={doc.required ? 'orange' : 'gray'} size="sm">
              {doc.required ? t('required') : t('optional')}
            </Badge>
          </Group>
          {doc.file && <FileLink url={doc.file.url} name={t(`type.${doc.type}`)} />}
          {doc.state === 'rejected' && doc.reason && (
            <Text fz="sm" c="masarRed.8">
              {doc.reason}
            </Text>
          )}
          {problem && (
            <Text fz="sm" c="masarRed.8">
              {problem}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <Badge color={STATE_COLOR[doc.state]}>{t(`docState.${doc.state}`)}</Badge>
          {!locked && (
            <FileButton onChange={(f) => void pick(f)} accept={DOCUMENT_ACCEPT}>
              {(props) => (
                <Button
                  {...props}
                  size="xs"
                  variant="light"
                  leftSection={<IconUpload size={14} />}
                  loading={busy}
                  aria-label={t('uploadNamed', { name: t(`type.${doc.type}`) })}
                >
                  {doc.file ? t('replace') : t('upload')}
                </Button>
              )}
            </FileButton>
          )}
        </Group>
      </Group>
    </Card>
  );
}

/**
 * Business verification (spec §2 /profile-approval): upload the documents the account type needs
 * (PDF, JPG, PNG ≤ 5 MB), send them for review, follow the state, and after a rejection read the
 * operator's reason and replace the documents.
 */
export default function ProfileApprovalPage() {
  const { t } = useTranslation('verification');
  const qc = useQueryClient();
  const { data, isLoading } = useQuery({ queryKey: KEY, queryFn: () => unwrap(masar.GET('/api/v1/profile-approval')) });
  const submitAll = useMutation({ mutationFn: () => unwrap(masar.POST('/api/v1/profile-approval/submit')) });
  const submit = async () => {
    try {
      qc.setQueryData(KEY, await submitAll.mutateAsync());
      notifySuccess(t('sent'));
    } catch (e) {
      showApiError(e);
    }
  };
  const locked = data?.state === 'pending_approval' || data?.state === 'approved';
  return (
    <Container size="md" py="xl">
      <Title order={1} mb="xs">
        {t('title')}
      </Title>
      <Text c="dimmed" mb="lg">
        {t('intro', { mb: DOCUMENT_MAX_MB })}
      </Text>
      {isLoading || !data ? (
        <Skeleton h={300} radius="lg" />
      ) : (
        <Stack gap="md">
          {data.state === 'pending_approval' && (
            <Alert color="blue" icon={<IconClock size={18} />} title={t('state.pending_approval')} data-testid="verification-state">
              {t('pendingText')}
            </Alert>
          )}
          {data.state === 'approved' && (
            <Alert color="masar" icon={<IconCheck size={18} />} title={t('state.approved')} data-testid="verification-state">
              {t('approvedText')}
            </Alert>
          )}
          {data.state === 'rejected' && (
            <Alert color="masarRed" icon={<IconX size={18} />} title={t('state.rejected')} data-testid="verification-state">
              {data.reason ?? t('rejectedText')}
              <Text fz="sm" mt={4}>
                {t('reupload')}
              </Text>
            </Alert>
          )}
          {data.documents.map((d) => (
            <DocumentRow key={d.type} doc={d} locked={locked} />
          ))}
          {!locked && (
            <Group>
              <Button onClick={() => void submit()} disabled={!data.canSubmit} loading={submitAll.isPending} data-testid="verification-submit">
                {t('submit')}
              </Button>
              {!data.canSubmit && <Text fz="sm">{t('needRequired')}</Text>}
            </Group>
          )}
        </Stack>
      )}
    </Container>
  );
}
