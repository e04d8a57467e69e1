import { useEffect, useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session';
import { LazyModal } from '../../components/LazyOverlay';

/** Spec §9: logout dialog delay. */
export const LOGOUT_DELAY_MS = 5000;

/**
 * Suspended or deleted account (spec §4): a dialog that cannot be dismissed; after 5 seconds,
 * or on OK, the user is logged out.
 */
export function BlockedDialog() {
  const { t } = useTranslation();
  const { blocked, signOut } = useSession();
  useEffect(() => {
    if (!blocked) return;
    const id = setTimeout(() => void signOut(), LOGOUT_DELAY_MS);
    return () => clearTimeout(id);
  }, [blocked, signOut]);
  const kind = blocked === 'ACCOUNT_DELETED' ? 'deleted' : 'suspended';
  return (
    <LazyModal
      opened={blocked !== null}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      zIndex={500}
      title={t(`blocked.${kind}Title`)}
    >
      <Text mb="md">{t(`blocked.${kind}Text`)}</Text>
      <Group justify="flex-end">
        <Button onClick={() => void signOut()}>{t('actions.ok')}</Button>
      </Group>
    </LazyModal>
  );
}

/** "You are not signed in" alert for e-mail links opened while signed out (spec §2 guard). */
export function NotSignedInDialog() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const flagged = (location.state as { alert?: string } | null)?.alert === 'notSignedIn';
  useEffect(() => {
    if (flagged) {
      setOpen(true);
      void navigate(location.pathname + location.search, { replace: true, state: null });
    }
  }, [flagged, navigate, location.pathname, location.search]);
  return (
    <LazyModal opened={open} onClose={() => setOpen(false)} centered zIndex={400} title={t('guard.notSignedInTitle')}>
      <Text mb="md">{t('guard.notSignedInText')}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => setOpen(false)}>
          {t('actions.ok')}
        </Button>
        <Button
          onClick={() => {
            setOpen(false);
            void navigate('/login');
          }}
        >
          {t('menu:signIn')}
        </Button>
      </Group>
    </LazyModal>
  );
}
