import { useEffect, useState } from 'react';
import { Anchor, Button, Group, PinInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@masar/shared';

/** Seconds before a new code may be requested. */
export const RESEND_SECONDS = 30;

/**
 * The 4-digit code step (spec §5 OTP): PinInput that submits when complete, resend with a
 * countdown, and a way back to change the number.
 */
export function OtpStep({
  phone,
  busy,
  error,
  onSubmit,
  onResend,
  onBack,
  submitLabel,
}: {
  phone: string;
  busy: boolean;
  error?: string | null;
  onSubmit: (otp: string) => void;
  onResend: () => Promise<void>;
  onBack: () => void;
  submitLabel: string;
}) {
  const { t } = useTranslation('auth');
  const [otp, setOtp] = useState('');
  const [left, setLeft] = useState(RESEND_SECONDS);
  useEffect(() => {
    if (left <= 0) return;
    const id = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(id);
  }, [left]);
  useEffect(() => {
    if (error) setOtp('');
  }, [error]);
  const complete = otp.length === LIMITS.otpDigits;
  return (
    <Stack gap="md">
      <Text fz="sm">
        {t('otp.sentTo', { n: LIMITS.otpDigits })}{' '}
        <Text span fw={700} dir="ltr">
          {phone}
        </Text>
      </Text>
      <Group justify="center" dir="ltr">
        <PinInput
          length={LIMITS.otpDigits}
          type="number"
          oneTimeCode
          autoFocus
          size="lg"
          value={otp}
          onChange={setOtp}
          onComplete={(v) => onSubmit(v)}
          error={!!error}
          aria-label={t('otp.label')}
          disabled={busy}
        />
      </Group>
      {error && (
        <Text c="red" fz="sm" ta="center" role="alert">
          {error}
        </Text>
      )}
      <Button fullWidth loading={busy} disabled={!complete} onClick={() => onSubmit(otp)}>
        {submitLabel}
      </Button>
      <Group justify="space-between" fz="sm">
        <Anchor component="button" type="button" fz="sm" onClick={onBack}>
          {t('otp.changeNumber')}
        </Anchor>
        {left > 0 ? (
          <Text fz="sm" c="dimmed">
            {t('otp.resendIn', { seconds: left })}
          </Text>
        ) : (
          <Anchor
            component="button"
            type="button"
            fz="sm"
            onClick={() => {
              setLeft(RESEND_SECONDS);
              setOtp('');
              void onResend();
            }}
          >
            {t('otp.resend')}
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}
