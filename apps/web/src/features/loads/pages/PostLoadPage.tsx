import { useState } from 'react';
import { Alert, Center, Container, Title } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CreateLoadBody } from '@masar/shared';
import { ApiError } from '../../../lib/api';
import { asLang } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../components/notify';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { useLoad, useSaveLoad } from '../api/loads';
import { LoadForm } from '../components/LoadForm';
import { apiFieldErrors } from '../../../lib/form';
import { emptyLoadForm, loadToForm } from '../utils/loadForm';
import { Loading } from '../../../components/Loading';

/** /shippers/post-load, /brokers/post-load; `?edit=<id>` edits an existing load (PATCH). */
export default function PostLoadPage() {
  const { t, i18n } = useTranslation('loads');
  const [params] = useSearchParams();
  const editId = params.get('edit');
  const navigate = useNavigate();
  const paths = rolePaths(useRoleBase());
  const existing = useLoad(editId ?? undefined);
  const save = useSaveLoad(editId);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const canPostOnSave = existing.data?.status === 'unposted' || existing.data?.status === 'expired';

  const onSubmit = (body: CreateLoadBody) => {
    setServerErrors({});
    const repost = !!editId && canPostOnSave && body.post !== false;
    save.mutate(
      { body, repost },
      {
        onSuccess: (load) => {
          notifySuccess(
            editId && !repost ? t('form.saved') : load.status === 'unposted' ? t('form.savedUnposted') : t('form.posted', { ref: load.referenceId }),
          );
          // an own-vehicle shipment is booked at once: it waits in "unassigned" for its truck
          const tab = load.status === 'unposted' || load.status === 'expired' ? 'unposted' : load.status === 'unassigned' ? 'unassigned' : 'posted';
          void navigate(`${paths.myLoads}?tab=${tab}`);
        },
        onError: (e) => {
          if (e instanceof ApiError && e.errors.length) setServerErrors(apiFieldErrors(e, {}, asLang(i18n.language)));
          notifyError(e);
        },
      },
    );
  };

  return (
    <Container size="lg" py="md">
      <Title order={2} mb="md">
        {editId ? t('form.editTitle') : t('form.title')}
      </Title>
      {editId && existing.isLoading && (
        <Center h={200}>
          <Loading />
        </Center>
      )}
      {editId && existing.isError && <Alert color="masarRed">{existing.error.message}</Alert>}
      {(!editId || existing.data) && (
        <LoadForm
          key={existing.data?.id ?? 'new'}
          initialValues={existing.data ? loadToForm(existing.data) : emptyLoadForm()}
          editing={!!editId}
          canPostOnSave={canPostOnSave}
          submitting={save.isPending}
          onSubmit={onSubmit}
          serverErrors={serverErrors}
        />
      )}
    </Container>
  );
}
