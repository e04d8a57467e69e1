import { useState } from 'react';
import { Alert, Card, Center, Container, Stack, Stepper, Text, Title } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { vendorInput, type VendorStatus } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { masar, unwrap, type BodyOf } from '../../../lib/api';
import { VendorForm } from '../components/VendorForm';
import { isolate } from '../../../components/bidi';
import { Loading } from '../../../components/Loading';

const storeKey = (token: string) => `vendorRequest:${token}`;

/** Where the request stands (spec §4 "Vendor sign-up request: request submitted, pending approval, not verified"). */
export function VendorRequestSteps({ status }: { status: VendorStatus }) {
  const { t } = useTranslation('vendors');
  const active = status === 'request_submitted' ? 1 : status === 'pending_approval' ? 2 : 3;
  const rejected = status === 'not_verified';
  return (
    <Stepper active={active} orientation="vertical" color={rejected ? 'red' : 'masar'} data-testid="vendor-request-steps" data-status={status}>
      <Stepper.Step label={t('invite.step.submitted')} description={t('invite.step.submittedText')} />
      <Stepper.Step label={t('invite.step.pending')} description={t('invite.step.pendingText')} />
      <Stepper.Step
        label={rejected ? t('status.not_verified') : t('status.verified')}
        description={rejected ? t('invite.step.rejectedText') : t('invite.step.verifiedText')}
        color={rejected ? 'red' : undefined}
      />
    </Stepper>
  );
}

/** Public /vendor?invite=<token>: a vendor asks to join a shipper's or broker's vendor list. */
export default function VendorInvitePage() {
  const { t } = useTranslation('vendors');
  const [params] = useSearchParams();
  const token = params.get('invite') ?? '';
  const request = useMutation({
    mutationFn: (body: BodyOf<'/api/v1/vendor-invites/{token}', 'post'>) =>
      unwrap(masar.POST('/api/v1/vendor-invites/{token}', { params: { path: { token } }, body })),
  });
  const [status, setStatus] = useState<VendorStatus | null>(() => (token ? (localStorage.getItem(storeKey(token)) as VendorStatus | null) : null));

  const info = useQuery({
    queryKey: ['vendor-invite', token],
    queryFn: () => unwrap(masar.GET('/api/v1/vendor-invites/{token}', { params: { path: { token } } })),
    enabled: !!token,
    retry: false,
  });
  const shown = status;

  return (
    <Container size="md" py="xl">
      <Stack>
        <Stack gap={4} align="center">
          <IconBuildingStore size={48} stroke={1.3} color="var(--mantine-color-masar-6)" />
          <Title order={2} ta="center">
            {t('invite.title')}
          </Title>
        </Stack>
        {!token ? (
          <Alert color="red" data-testid="vendor-invite-invalid">
            {t('invite.invalid')}
          </Alert>
        ) : info.isLoading ? (
          <Center>
            <Loading />
          </Center>
        ) : info.isError ? (
          <Alert color="red" data-testid="vendor-invite-invalid">
            {info.error.message || t('invite.invalid')}
          </Alert>
        ) : shown ? (
          <Card withBorder data-testid="vendor-invite-status">
            <Stack>
              <Text fw={600}>{t('invite.thanks', { company: isolate(info.data?.companyName ?? '') })}</Text>
              <VendorRequestSteps status={shown} />
            </Stack>
          </Card>
        ) : (
          <Card withBorder>
            <Stack>
              <Text>{t('invite.intro', { company: isolate(info.data?.companyName ?? '') })}</Text>
              <VendorForm
                publicMode
                submitLabel={t('invite.submit')}
                onSubmit={async ({ body }) => {
                  // a public request carries no documents (uploads need an account)
                  const { documentFileIds: _none, ...publicRequest } = vendorInput.parse(body);
                  const v = await request.mutateAsync(publicRequest);
                  const s = v?.status ?? 'request_submitted';
                  localStorage.setItem(storeKey(token), s);
                  setStatus(s);
                }}
              />
            </Stack>
          </Card>
        )}
      </Stack>
    </Container>
  );
}
