import { Group, Text } from '@mantine/core';

/** The Masar mark: a lane winding to a pin, and the bilingual word mark "Masar / مسار". */
export function Logo({ size = 28, withText = true }: { size?: number; withText?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      {/* the word mark names a link around the logo; alone, the mark names itself */}
      <svg width={size} height={size} viewBox="0 0 32 32" {...(withText ? { 'aria-hidden': true } : { role: 'img', 'aria-label': 'Masar مسار' })}>
        <rect width="32" height="32" rx="8" fill="#0FC474" />
        <path d="M7 24c4-1 5-5 9-6s6-3 6-8" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
        <circle cx="22" cy="9" r="3.2" fill="#ffcd00" />
      </svg>
      {withText && (
        <Group gap={6} wrap="nowrap" align="baseline">
          <Text fw={800} fz="lg" lh={1} lang="en">
            Masar
          </Text>
          <Text fw={700} fz="md" lh={1} c="masar" lang="ar">
            مسار
          </Text>
        </Group>
      )}
    </Group>
  );
}
