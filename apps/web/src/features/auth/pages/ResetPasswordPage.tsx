import { Alert, Anchor, Button, Group, Input, PasswordInput, PinInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS, resetPasswordBody } from '@masar/shared';
import { notifySuccess, showApiError, zodValidate } from '../../../lib/form';
import { authMutations } from '../api/authApi';
import { AuthCard } from '../components/AuthCard';

/** /reset-password?phone=&otpId= — the SMS code and a new password (spec §2, §5). */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const phone = params.get('phone') ?? '';
  const otpId = params.get('otpId') ?? '';
  const resetPassword = useMutation(authMutations.resetPassword);
  const forgotPassword = useMutation(authMutations.forgotPassword);
  const validate = zodValidate(resetPasswordBody);
  const form = useForm({
    mode: 'controlled',
    initialValues: { otp: '', newPassword: '', confirmPassword: '' },
    validate: (v) => validate({ ...v, phone, otpId }),
  });

  if (!phone || !otpId) {
    return (
      <AuthCard title={t('reset.title')}>
        <Alert color="red" mb="md">
          {t('reset.missing')}
        </Alert>
        <Button component={Link} to="/forgot-password" fullWidth>
          {t('reset.requestNew')}
        </Button>
      </AuthCard>
    );
  }

  const submit = form.onSubmit(async (values) => {
    const body = resetPasswordBody.parse({ ...values, phone, otpId });
    try {
      await resetPassword.mutateAsync(body);
      notifySuccess(t('reset.done'));
      void navigate('/login', { replace: true });
    } catch (e) {
      showApiError(e, form, { INVALID_OTP: 'otp', OTP_EXPIRED: 'otp', OTP_ATTEMPTS_EXCEEDED: 'otp', INVALID_RESET_TOKEN: 'otp' });
    }
  });

  const resend = async () => {
    try {
      const r = await forgotPassword.mutateAsync(phone);
      setParams({ phone, otpId: r.otpId }, { replace: true });
      form.setFieldValue('otp', '');
      notifySuccess(t('otp.resent'));
    } catch (e) {
      showApiError(e);
    }
  };

  const otpProps = form.getInputProps('otp');
  return (
    <AuthCard
      title={t('reset.title')}
      subtitle={t('reset.subtitle', { phone: `\u2066${phone}\u2069` })}
      footer={
        <Anchor component={Link} to="/login">
          {t('forgot.back')}
        </Anchor>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Input.Wrapper label={t('otp.label')} error={otpProps.error as string | undefined}>
            <Group justify="center" dir="ltr" mt={6}>
              <PinInput
                length={LIMITS.otpDigits}
                type="number"
                oneTimeCode
                size="lg"
                value={form.values.otp}
                onChange={(v) => form.setFieldValue('otp', v)}
                error={!!otpProps.error}
                aria-label={t('otp.label')}
              />
            </Group>
          </Input.Wrapper>
          <Anchor component="button" type="button" fz="sm" onClick={() => void resend()} style={{ alignSelf: 'flex-end' }}>
            {t('otp.resend')}
          </Anchor>
          <PasswordInput
            label={t('fields.newPassword')}
            description={t('signup.passwordHint', { min: LIMITS.passwordMin, max: LIMITS.passwordMax })}
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
            key={form.key('newPassword')}
          />
          <PasswordInput
            label={t('fields.confirmPassword')}
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
            key={form.key('confirmPassword')}
          />
          <Button type="submit" fullWidth loading={resetPassword.isPending}>
            {t('reset.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
