import { Anchor, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { forgotPasswordBody } from '@masar/shared';
import { showApiError, zodValidate } from '../../../lib/form';
import { authMutations } from '../api/authApi';
import { AuthCard } from '../components/AuthCard';
import { PhoneInput } from '../components/PhoneInput';

/** /forgot-password — send a reset code by SMS, then go to /reset-password?phone=&otpId=. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const forgotPassword = useMutation(authMutations.forgotPassword);
  const form = useForm({ mode: 'controlled', initialValues: { phone: '' }, validate: zodValidate(forgotPasswordBody) });
  const submit = form.onSubmit(async (values) => {
    const { phone } = forgotPasswordBody.parse(values);
    try {
      const { otpId } = await forgotPassword.mutateAsync(phone);
      void navigate(`/reset-password?${new URLSearchParams({ phone, otpId }).toString()}`);
    } catch (e) {
      showApiError(e, form, { NOT_REGISTERED: 'phone', RATE_LIMITED: 'phone' });
    }
  });
  return (
    <AuthCard
      title={t('forgot.title')}
      subtitle={t('forgot.subtitle')}
      footer={
        <Anchor component={Link} to="/login">
          {t('forgot.back')}
        </Anchor>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <PhoneInput {...form.getInputProps('phone')} key={form.key('phone')} autoFocus />
          <Button type="submit" fullWidth loading={forgotPassword.isPending}>
            {t('forgot.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
