import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LazyModal } from '../../components/LazyOverlay';

/**
 * Spec §4 "account approved" dialog: shown once, on the first profile answer after the operator
 * approved the account (`isFirstTimeLoginAfterApproved`, which the server reports exactly once).
 * Fetched lazily with the 'verification' strings (AppLayout), so it costs the shell a few bytes.
 * `pricingPath`: the pricing page of the user's type (a plan is the next step).
 */
export default function ApprovedDialog({ pricingPath }: { pricingPath: string | null }) {
  const { t } = useTranslation('verification');
  const [open, setOpen] = useState(true);
  const close = () => setOpen(false);
  return (
    <LazyModal opened={open} onClose={close} centered zIndex={400} title={t('approvedDialog.title')}>
      <Text mb="md" data-testid="approved-dialog-text">
        {t('approvedText')}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={close}>
          {t('approvedDialog.later')}
        </Button>
        {pricingPath && (
          <Button component={Link} to={pricingPath} onClick={close} data-testid="approved-dialog-plans">
            {t('approvedDialog.choosePlan')}
          </Button>
        )}
      </Group>
    </LazyModal>
  );
}
