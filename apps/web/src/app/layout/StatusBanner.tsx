import { useEffect, useRef, useState } from 'react';
import { Box, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PROFILE_STATUS, type Profile } from '@masar/shared';
import { ContactDialog } from './ContactDialog';

/** Which banner a profile needs (spec §2): pending (status 1, not first-approved) or rejected (5). */
export function bannerKind(profile: Pick<Profile, 'status' | 'isFirstTimeApproved'> | undefined): 'pending' | 'rejected' | null {
  if (!profile) return null;
  if (profile.status === PROFILE_STATUS.rejected) return 'rejected';
  if (profile.status === PROFILE_STATUS.pending && !profile.isFirstTimeApproved) return 'pending';
  return null;
}

export const BANNER_HEIGHT = 64;

/** Persistent banner at the bottom of the screen while the account is pending or rejected. */
export function StatusBanner({
  kind,
  bottom,
  onHeight,
  verifyPath,
}: {
  kind: 'pending' | 'rejected';
  bottom: number;
  onHeight?: (px: number) => void;
  /** The profile approval page of the user's type: upload or replace the business documents. */
  verifyPath?: string;
}) {
  const { t } = useTranslation();
  const [contact, setContact] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  // the page keeps its last lines visible above the banner, however tall the text wraps
  useEffect(() => {
    const el = ref.current;
    if (!el || !onHeight || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => onHeight(el.offsetHeight));
    ro.observe(el);
    return () => {
      ro.disconnect();
      onHeight(0);
    };
  }, [onHeight]);
  return (
    <>
      <Box
        ref={ref}
        role="status"
        px="md"
        py="xs"
        style={{
          position: 'fixed',
          insetInline: 0,
          bottom,
          minHeight: BANNER_HEIGHT,
          zIndex: 130,
          display: 'flex',
          alignItems: 'center',
          background: kind === 'rejected' ? 'var(--mantine-color-masarRed-light)' : 'var(--mantine-color-yellow-light)',
          backdropFilter: 'blur(6px)',
          borderBlockStart: `2px solid ${kind === 'rejected' ? 'var(--mantine-color-masarRed-6)' : '#ffcd00'}`,
        }}
      >
        <Group justify="space-between" wrap="nowrap" w="100%" gap="sm">
          <Group gap="xs" wrap="nowrap">
            <IconAlertTriangle size={20} style={{ flexShrink: 0 }} />
            <Text fz="sm" fw={500}>
              {t(`banner.${kind}`)}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            {verifyPath && (
              <Button size="xs" color="dark" component={Link} to={verifyPath} data-testid="verify-now">
                {t('banner.verifyNow')}
              </Button>
            )}
            <Button size="xs" variant="white" color="dark" onClick={() => setContact(true)}>
              {t('contact.button')}
            </Button>
          </Group>
        </Group>
      </Box>
      <ContactDialog opened={contact} onClose={() => setContact(false)} />
    </>
  );
}
