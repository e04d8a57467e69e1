import { useState } from 'react';
import { Anchor, Button, PasswordInput, Stack, Tabs } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey, IconMessage2 } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { loginPasswordSchema, phoneSchema } from '@masar/shared';
import { ApiError } from '../../../lib/api';
import { showApiError, zodValidate } from '../../../lib/form';
import { landingOf, useSession } from '../../../lib/session';
import { authMutations, type AuthResult } from '../api/authApi';
import { AuthCard } from '../components/AuthCard';
import { OtpStep } from '../components/OtpStep';
import { PhoneInput } from '../components/PhoneInput';

const passwordForm = z.object({ phone: phoneSchema, password: loginPasswordSchema });
const phoneForm = z.object({ phone: phoneSchema });

/** /login — sign in by phone + password, or phone + SMS code (spec §2, §7). */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const session = useSession();
  const navigate = useNavigate();
  const signInPassword = useMutation(authMutations.signInPassword);
  const signInOtp = useMutation(authMutations.signInOtp);
  const sendOtp = useMutation(authMutations.sendOtp);
  // "send again" on the code step has its own mutation: it does not make the sign-in busy
  const resendOtp = useMutation(authMutations.sendOtp);
  const busy = signInPassword.isPending || sendOtp.isPending || signInOtp.isPending;
  const [otpState, setOtpState] = useState<{ phone: string; otpId: string } | null>(null);
  const [otpError, setOtpError] = useState<string | null>(null);

  const pwd = useForm({ mode: 'controlled', initialValues: { phone: '', password: '' }, validate: zodValidate(passwordForm) });
  const byOtp = useForm({ mode: 'controlled', initialValues: { phone: '' }, validate: zodValidate(phoneForm) });

  const done = (r: AuthResult) => {
    session.signIn(r.token, r.profile);
    void navigate(landingOf(r.profile.accountType), { replace: true });
  };

  const submitPassword = pwd.onSubmit(async (values) => {
    const body = passwordForm.parse(values);
    try {
      done(await signInPassword.mutateAsync({ phone: body.phone, password: body.password }));
    } catch (e) {
      showApiError(e, pwd, { INVALID_CREDENTIALS: 'password', NOT_REGISTERED: 'phone' });
    }
  });

  const sendCode = async (phone: string, send = sendOtp) => {
    const r = await send.mutateAsync({ phone, purpose: 'login' });
    setOtpState({ phone, otpId: r.otpId });
    setOtpError(null);
  };

  const submitPhone = byOtp.onSubmit(async (values) => {
    const { phone } = phoneForm.parse(values);
    try {
      await sendCode(phone);
    } catch (e) {
      showApiError(e, byOtp, { NOT_REGISTERED: 'phone', RATE_LIMITED: 'phone' });
    }
  });

  const submitOtp = async (otp: string) => {
    if (!otpState || busy) return;
    try {
      done(await signInOtp.mutateAsync({ phone: otpState.phone, otpId: otpState.otpId, otp }));
    } catch (e) {
      if (e instanceof ApiError && e.status >= 400 && e.status < 500) setOtpError(e.message);
      else showApiError(e);
    }
  };

  return (
    <AuthCard
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <Anchor component={Link} to="/signup" fw={600}>
            {t('login.signUp')}
          </Anchor>
        </>
      }
    >
      <Tabs defaultValue="password" keepMounted={false}>
        <Tabs.List grow mb="lg">
          <Tabs.Tab value="password" leftSection={<IconKey size={16} />}>
            {t('login.tabPassword')}
          </Tabs.Tab>
          <Tabs.Tab value="otp" leftSection={<IconMessage2 size={16} />}>
            {t('login.tabOtp')}
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="password">
          <form onSubmit={submitPassword} noValidate>
            <Stack gap="md">
              <PhoneInput {...pwd.getInputProps('phone')} key={pwd.key('phone')} autoFocus />
              <PasswordInput label={t('fields.password')} autoComplete="current-password" {...pwd.getInputProps('password')} key={pwd.key('password')} />
              <Anchor component={Link} to="/forgot-password" fz="sm" style={{ alignSelf: 'flex-end' }}>
                {t('login.forgot')}
              </Anchor>
              <Button type="submit" fullWidth loading={busy}>
                {t('login.submit')}
              </Button>
            </Stack>
          </form>
        </Tabs.Panel>

        <Tabs.Panel value="otp">
          {otpState ? (
            <OtpStep
              phone={otpState.phone}
              busy={busy}
              error={otpError}
              submitLabel={t('login.submit')}
              onSubmit={(otp) => void submitOtp(otp)}
              onResend={() => sendCode(otpState.phone, resendOtp).catch((e) => showApiError(e))}
              onBack={() => setOtpState(null)}
            />
          ) : (
            <form onSubmit={submitPhone} noValidate>
              <Stack gap="md">
                <PhoneInput {...byOtp.getInputProps('phone')} key={byOtp.key('phone')} />
                <Button type="submit" fullWidth loading={busy}>
                  {t('otp.send')}
                </Button>
              </Stack>
            </form>
          )}
        </Tabs.Panel>
      </Tabs>
    </AuthCard>
  );
}
