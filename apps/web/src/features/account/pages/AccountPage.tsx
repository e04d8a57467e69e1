import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Badge, Button, Card, Container, Group, PasswordInput, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAddressBook, IconBan, IconCreditCard, IconFileText, IconLogout, IconPencil, IconSettings, IconStar, IconUsersGroup } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { changePasswordBody, LIMITS, PROFILE_STATUS, updateProfileBody, type Profile } from '@masar/shared';
import { asLang, formatDate } from '../../../components/format';
import { useRoleBase } from '../../../components/useViewer';
import { masar, unwrap, type BodyOf } from '../../../lib/api';
import { notifySuccess, showApiError, zodValidate } from '../../../lib/form';
import { PROFILE_QUERY_KEY, useSession } from '../../../lib/session';
import { useBusinessProfile, useContactInfo } from '../api/profile';
import { BusinessProfileForm } from '../components/BusinessProfileForm';
import { ContactInfoCard } from '../components/ContactInfoCard';
import { Slot } from '../../../components/slots';

const STATUS_COLOR: Record<number, string> = {
  [PROFILE_STATUS.pending]: 'yellow',
  [PROFILE_STATUS.approved]: 'masar',
  [PROFILE_STATUS.suspended]: 'orange',
  [PROFILE_STATUS.deleted]: 'gray',
  [PROFILE_STATUS.rejected]: 'masarRed',
};

function Field({ label, value, ltr }: { label: string; value: string; ltr?: boolean }) {
  return (
    <div>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={500}>{ltr ? <span dir="ltr">{value || '—'}</span> : <bdi>{value || '—'}</bdi>}</Text>
    </div>
  );
}

function ProfileCard({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('account');
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const update = useMutation({ mutationFn: (body: BodyOf<'/api/v1/account', 'patch'>) => unwrap(masar.PATCH('/api/v1/account', { body })) });
  const form = useForm({
    mode: 'controlled',
    initialValues: { firstName: profile.firstName, lastName: profile.lastName, companyName: profile.companyName, email: profile.email },
    validate: zodValidate(updateProfileBody),
  });
  const save = form.onSubmit(async (values) => {
    try {
      const updated = await update.mutateAsync(updateProfileBody.parse(values));
      queryClient.setQueryData(PROFILE_QUERY_KEY, updated);
      notifySuccess(t('profile.saved'));
      setEditing(false);
    } catch (e) {
      showApiError(e, form, { EMAIL_EXISTS: 'email' });
    }
  });

  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h3">
          {t('profile.title')}
        </Title>
        {!editing && (
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPencil size={14} />}
            onClick={() => {
              form.setValues({ firstName: profile.firstName, lastName: profile.lastName, companyName: profile.companyName, email: profile.email });
              form.resetDirty();
              setEditing(true);
            }}
          >
            {t('common:actions.edit')}
          </Button>
        )}
      </Group>
      {editing ? (
        <form onSubmit={save} noValidate>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('auth:fields.firstName')} {...form.getInputProps('firstName')} key={form.key('firstName')} />
              <TextInput label={t('auth:fields.lastName')} {...form.getInputProps('lastName')} key={form.key('lastName')} />
            </SimpleGrid>
            <TextInput label={t('auth:fields.companyName')} {...form.getInputProps('companyName')} key={form.key('companyName')} />
            <TextInput label={t('auth:fields.email')} type="email" dir="ltr" {...form.getInputProps('email')} key={form.key('email')} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(false)}>
                {t('common:actions.cancel')}
              </Button>
              <Button type="submit" loading={update.isPending}>
                {t('common:actions.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Field label={t('profile.name')} value={`${profile.firstName} ${profile.lastName}`.trim()} />
          <Field label={t('auth:fields.companyName')} value={profile.companyName} />
          <Field label={t('auth:fields.email')} value={profile.email} />
          <Field label={t('auth:fields.phone')} value={profile.phone} ltr />
          <Field label={t('profile.type')} value={t(`types.${profile.accountType}`, { defaultValue: t('types.unknown') })} />
          <Field label={t('profile.memberSince')} value={formatDate(profile.createdAt, asLang(i18n.language), false)} />
        </SimpleGrid>
      )}
    </Card>
  );
}

function StatusCard({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('account');
  const base = useRoleBase(profile.accountType);
  // the plan's name, period and renewal (modules/billing; the same cache entry as the billing page)
  const { data: subscription } = useQuery({ queryKey: ['billing', 'subscription'], queryFn: () => unwrap(masar.GET('/api/v1/subscription')) });
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} size="h3" mb="md">
        {t('status.title')}
      </Title>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text c="dimmed">{t('status.account')}</Text>
          <Badge color={STATUS_COLOR[profile.status] ?? 'gray'} variant="light" size="lg">
            {profile.statusText || t(`status.s${profile.status}`, { defaultValue: String(profile.status) })}
          </Badge>
        </Group>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text c="dimmed">{t('status.plan')}</Text>
          {subscription ? (
            <Stack gap={2} align="flex-end">
              <Text fw={600} data-testid="account-plan">
                {subscription.planName}
              </Text>
              {subscription.currentPeriodEnd && (
                <Text fz="sm" c="dimmed">
                  {t(subscription.renewsAt ? 'status.renews' : 'status.ends', {
                    date: formatDate(subscription.currentPeriodEnd, asLang(i18n.language), false),
                  })}
                </Text>
              )}
            </Stack>
          ) : (
            <Text fw={500}>{t('status.noPlan')}</Text>
          )}
        </Group>
        <Group justify="flex-end">
          <Button component={Link} to={`${base}/${subscription ? 'billing-and-invoice' : 'pricing'}`} variant="light" size="xs">
            {subscription ? t('status.billing') : t('status.seePlans')}
          </Button>
        </Group>
        {profile.status === PROFILE_STATUS.pending && !profile.isFirstTimeApproved && (
          <Text fz="sm" c="dimmed">
            {t('status.pendingHint')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function ChangePasswordCard() {
  const { t } = useTranslation('account');
  const change = useMutation({
    mutationFn: (body: BodyOf<'/api/v1/account/changePassword', 'post'>) => unwrap(masar.POST('/api/v1/account/changePassword', { body })),
  });
  const form = useForm({
    mode: 'controlled',
    initialValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    validate: zodValidate(changePasswordBody),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await change.mutateAsync(values);
      notifySuccess(t('password.changed'));
      form.reset();
    } catch (e) {
      showApiError(e, form, { WRONG_PASSWORD: 'oldPassword', PASSWORDS_DO_NOT_MATCH: 'confirmPassword' });
    }
  });
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} size="h3" mb="md">
        {t('password.title')}
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <PasswordInput label={t('password.current')} autoComplete="current-password" {...form.getInputProps('oldPassword')} key={form.key('oldPassword')} />
          <PasswordInput
            label={t('auth:fields.newPassword')}
            description={t('auth:signup.passwordHint', { min: LIMITS.passwordMin, max: LIMITS.passwordMax })}
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
            key={form.key('newPassword')}
          />
          <PasswordInput
            label={t('auth:fields.confirmPassword')}
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
            key={form.key('confirmPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              {t('password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** A section of the account area that lives on its own page: title, hint and a link there ('profile' strings `<section>.title|hint|link`). */
function LinkCard({ section, to, icon, testId }: { section: 'book' | 'cards' | 'team' | 'waybill'; to: string; icon: ReactNode; testId: string }) {
  const { t } = useTranslation('profile');
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Title order={2} size="h3">
            {t(`${section}.title`)}
          </Title>
          <Text c="dimmed" size="sm">
            {t(`${section}.hint`)}
          </Text>
        </div>
        <Button component={Link} to={to} variant="light" leftSection={icon} data-testid={testId}>
          {t(`${section}.link`)}
        </Button>
      </Group>
    </Card>
  );
}

/** Business profile, contact info to share and the links to the address book, saved cards, team members and waybill config (issue 8; namespace 'profile'). */
function AccountAreaSections({ accountType }: { accountType: number }) {
  const base = useRoleBase(accountType);
  const business = useBusinessProfile();
  const contact = useContactInfo();
  return (
    <>
      {business.data ? <BusinessProfileForm profile={business.data} /> : <Skeleton h={200} radius="lg" />}
      {contact.data ? <ContactInfoCard info={contact.data} /> : <Skeleton h={160} radius="lg" />}
      <LinkCard section="book" to={`${base}/account/addresses`} icon={<IconAddressBook size={16} />} testId="address-book-link" />
      <LinkCard section="cards" to={`${base}/saved-cards`} icon={<IconCreditCard size={16} />} testId="saved-cards-link" />
      <LinkCard section="team" to={`${base}/account/team`} icon={<IconUsersGroup size={16} />} testId="team-link" />
      <LinkCard section="waybill" to={`${base}/bayan#waybill-config`} icon={<IconFileText size={16} />} testId="waybill-link" />
      <RelationLinks base={base} />
    </>
  );
}

/** Links to the favourites, blocked and settings pages (issue 8; namespace 'relations'). */
function RelationLinks({ base }: { base: string }) {
  const { t } = useTranslation('relations');
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} size="h3">
        {t('links.title')}
      </Title>
      <Text c="dimmed" size="sm" mb="sm">
        {t('links.hint')}
      </Text>
      <Group gap="sm">
        <Button component={Link} to={`${base}/favourites`} variant="light" leftSection={<IconStar size={16} />} data-testid="favourites-link">
          {t('links.favourites')}
        </Button>
        <Button component={Link} to={`${base}/blocked`} variant="light" leftSection={<IconBan size={16} />} data-testid="blocked-link">
          {t('links.blocked')}
        </Button>
        <Button component={Link} to={`${base}/setting`} variant="light" leftSection={<IconSettings size={16} />} data-testid="setting-link">
          {t('links.setting')}
        </Button>
      </Group>
    </Card>
  );
}

// /<role>/account/addresses is the same lazy route (nothing added to the app shell's route table chunk deps)
const AddressBookPage = lazy(() => import('./AddressBookPage'));

/** /shippers|carriers|brokers/account — profile basics, status, active plan, business profile, contact info, address book, password, logout. */
export default function AccountPage() {
  const { pathname } = useLocation();
  if (pathname.endsWith('/account/addresses'))
    return (
      <Suspense fallback={<Skeleton h={200} m="xl" radius="lg" />}>
        <AddressBookPage />
      </Suspense>
    );
  return <AccountHome />;
}

function AccountHome() {
  const { t } = useTranslation('account');
  const { profile, profileLoading, signOut } = useSession();
  const [leaving, setLeaving] = useState(false);
  return (
    <Container size="md" py="xl">
      <Group justify="space-between" mb="lg">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('title')}
        </Title>
        <Button
          variant="light"
          color="masarRed"
          leftSection={<IconLogout size={16} />}
          loading={leaving}
          onClick={() => {
            setLeaving(true);
            void signOut();
          }}
        >
          {t('menu:logout')}
        </Button>
      </Group>
      {!profile ? (
        profileLoading ? (
          <Stack>
            <Skeleton h={200} radius="lg" />
            <Skeleton h={140} radius="lg" />
          </Stack>
        ) : (
          <Text c="dimmed">{t('common:errors.profile')}</Text>
        )
      ) : (
        <Stack gap="lg">
          <Slot name="InvitationsCard" profile={profile} />
          <ProfileCard profile={profile} />
          <StatusCard profile={profile} />
          <AccountAreaSections accountType={profile.accountType} />
          <ChangePasswordCard />
        </Stack>
      )}
    </Container>
  );
}
