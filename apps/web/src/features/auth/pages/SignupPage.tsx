import { useState } from 'react';
import { Anchor, Button, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingWarehouse, IconCheck, IconRoute, IconTruck } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ACCOUNT_TYPE, LIMITS, signUpBody } from '@masar/shared';
import { ApiError } from '../../../lib/api';
import { showApiError, zodValidate } from '../../../lib/form';
import { landingOf, useSession } from '../../../lib/session';
import { authMutations } from '../api/authApi';
import { AuthCard } from '../components/AuthCard';
import { OtpStep } from '../components/OtpStep';
import { PhoneInput } from '../components/PhoneInput';

/** The sign-up fields before the OTP (the shared signUpBody without the code) + confirm password. */
const detailsSchema = signUpBody
  .omit({ otpId: true, otp: true })
  .extend({ confirmPassword: z.string() })
  .refine((b) => b.password === b.confirmPassword, { message: 'v.passwordsDoNotMatch', path: ['confirmPassword'] });

type Values = {
  accountType: string;
  firstName: string;
  lastName: string;
  companyName: string;
  email: string;
  phone: string;
  password: string;
  confirmPassword: string;
};
const toBody = (v: Values) => ({ ...v, accountType: Number(v.accountType) });

const TYPES = [
  { value: String(ACCOUNT_TYPE.shipper), key: 'shipper', Icon: IconBuildingWarehouse },
  { value: String(ACCOUNT_TYPE.carrier), key: 'carrier', Icon: IconTruck },
  { value: String(ACCOUNT_TYPE.broker), key: 'broker', Icon: IconRoute },
] as const;

/** /signup — account type, details, phone verification by SMS code, then signed in (spec §2). */
export default function SignupPage() {
  const { t } = useTranslation('auth');
  const session = useSession();
  const navigate = useNavigate();
  const sendOtp = useMutation(authMutations.sendOtp);
  const signUp = useMutation(authMutations.signUp);
  // "send again" on the code step has its own mutation: it does not make the sign-up busy
  const resendOtp = useMutation(authMutations.sendOtp);
  const busy = sendOtp.isPending || signUp.isPending;
  const [otp, setOtp] = useState<{ otpId: string; body: z.output<typeof detailsSchema> } | null>(null);
  const [otpError, setOtpError] = useState<string | null>(null);

  const validateDetails = zodValidate(detailsSchema);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { accountType: '1', firstName: '', lastName: '', companyName: '', email: '', phone: '', password: '', confirmPassword: '' },
    validate: (v) => validateDetails(toBody(v)),
  });

  const sendCode = async (phone: string, send = sendOtp) => (await send.mutateAsync({ phone, purpose: 'signup' })).otpId;

  const submitDetails = form.onSubmit(async (values) => {
    const body = detailsSchema.parse(toBody(values));
    try {
      setOtp({ otpId: await sendCode(body.phone), body });
      setOtpError(null);
    } catch (e) {
      showApiError(e, form, { PHONE_EXISTS: 'phone', RATE_LIMITED: 'phone' });
    }
  });

  const verify = async (code: string) => {
    if (!otp || busy) return;
    try {
      const { confirmPassword: _c, ...body } = otp.body;
      const r = await signUp.mutateAsync({ ...body, otpId: otp.otpId, otp: code });
      session.signIn(r.token, r.profile);
      void navigate(landingOf(r.profile.accountType), { replace: true });
    } catch (e) {
      if (e instanceof ApiError && (e.code === 'EMAIL_EXISTS' || e.code === 'PHONE_EXISTS' || e.code === 'VALIDATION_FAILED')) {
        setOtp(null);
        showApiError(e, form, { EMAIL_EXISTS: 'email', PHONE_EXISTS: 'phone' });
      } else if (e instanceof ApiError && e.status >= 400 && e.status < 500) setOtpError(e.message);
      else showApiError(e);
    }
  };

  return (
    <AuthCard
      title={otp ? t('signup.verifyTitle') : t('signup.title')}
      subtitle={otp ? undefined : t('signup.subtitle')}
      footer={
        <>
          {t('signup.haveAccount')}{' '}
          <Anchor component={Link} to="/login" fw={600}>
            {t('signup.signIn')}
          </Anchor>
        </>
      }
    >
      {otp ? (
        <OtpStep
          phone={otp.body.phone}
          busy={busy}
          error={otpError}
          submitLabel={t('signup.create')}
          onSubmit={(code) => void verify(code)}
          onResend={async () => {
            try {
              const otpId = await sendCode(otp.body.phone, resendOtp);
              setOtp({ ...otp, otpId });
            } catch (e) {
              showApiError(e);
            }
          }}
          onBack={() => setOtp(null)}
        />
      ) : (
        <form onSubmit={submitDetails} noValidate>
          <Stack gap="md">
            <div>
              <Text fz="sm" fw={500} mb={6} id="account-type-label">
                {t('signup.accountType')}
              </Text>
              <SimpleGrid cols={3} spacing="xs" role="radiogroup" aria-labelledby="account-type-label">
                {TYPES.map(({ value, key, Icon }) => {
                  const selected = form.values.accountType === value;
                  return (
                    <UnstyledButton
                      key={value}
                      role="radio"
                      aria-checked={selected}
                      onClick={() => form.setFieldValue('accountType', value)}
                      p="sm"
                      style={{
                        borderRadius: 'var(--mantine-radius-md)',
                        border: `2px solid ${selected ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
                        background: selected ? 'var(--mantine-primary-color-light)' : undefined,
                        textAlign: 'center',
                        position: 'relative',
                      }}
                    >
                      {selected && (
                        <IconCheck size={14} style={{ position: 'absolute', insetInlineEnd: 6, top: 6 }} color="var(--mantine-primary-color-filled)" />
                      )}
                      <Icon size={26} stroke={1.5} className="masar-mirror-rtl" />
                      <Text fz="sm" fw={600}>
                        {t(`types.${key}`)}
                      </Text>
                      <Text fz={11} c="dimmed" lh={1.3}>
                        {t(`types.${key}Hint`)}
                      </Text>
                    </UnstyledButton>
                  );
                })}
              </SimpleGrid>
            </div>
            <Group grow align="flex-start">
              <TextInput label={t('fields.firstName')} autoComplete="given-name" {...form.getInputProps('firstName')} key={form.key('firstName')} />
              <TextInput label={t('fields.lastName')} autoComplete="family-name" {...form.getInputProps('lastName')} key={form.key('lastName')} />
            </Group>
            <TextInput label={t('fields.companyName')} autoComplete="organization" {...form.getInputProps('companyName')} key={form.key('companyName')} />
            <TextInput label={t('fields.email')} type="email" autoComplete="email" dir="ltr" {...form.getInputProps('email')} key={form.key('email')} />
            <PhoneInput {...form.getInputProps('phone')} key={form.key('phone')} />
            <PasswordInput
              label={t('fields.password')}
              description={t('signup.passwordHint', { min: LIMITS.passwordMin, max: LIMITS.passwordMax })}
              autoComplete="new-password"
              {...form.getInputProps('password')}
              key={form.key('password')}
            />
            <PasswordInput
              label={t('fields.confirmPassword')}
              autoComplete="new-password"
              {...form.getInputProps('confirmPassword')}
              key={form.key('confirmPassword')}
            />
            <Button type="submit" fullWidth loading={busy}>
              {t('signup.sendCode')}
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
