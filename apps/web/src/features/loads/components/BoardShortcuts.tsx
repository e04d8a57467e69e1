import { useState, type RefObject } from 'react';
import { ActionIcon, Group, Kbd, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconKeyboard } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The links of the result rows: the results table's reference links (LoadsTable) and LoadCard's (stretched over its card). */
const ROW = 'a.masar-card-link, a.masar-row-link';

/** The shortcuts of the board and their keys as printed (physical keys: the same on an Arabic layout). */
export const BOARD_SHORTCUTS = [
  { id: 'next', keys: ['J'] },
  { id: 'prev', keys: ['K'] },
  { id: 'open', keys: ['Enter'] },
  { id: 'bid', keys: ['B'] },
  { id: 'filters', keys: ['/'] },
  { id: 'help', keys: ['Shift', '?'] },
] as const;

/**
 * Keyboard shortcuts of the load board for people who work it all day (issue 23): J / K move to
 * the next / previous load (focus on its link), Enter opens it (the link), B opens it at the bid
 * form (`#bid`), / jumps to the filters, ? lists them. Keys are physical (KeyJ…), so they work on
 * an Arabic keyboard layout too; typing in a field never triggers them (useHotkeys ignores inputs).
 */
export function BoardShortcuts({ results, filters }: { results: RefObject<HTMLElement | null>; filters: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation('loads');
  const navigate = useNavigate();
  const [help, setHelp] = useState(false);
  const rows = () => [...(results.current?.querySelectorAll<HTMLAnchorElement>(ROW) ?? [])];
  const move = (by: 1 | -1) => {
    const all = rows();
    if (all.length === 0) return;
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    const next = at < 0 ? (by === 1 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, at + by));
    all[next]?.focus();
    all[next]?.scrollIntoView({ block: 'nearest' });
  };
  const bid = () => {
    const row = rows().find((a) => a === document.activeElement) ?? rows()[0];
    const href = row?.getAttribute('href');
    if (href) void navigate(`${href}#bid`);
  };
  const physical = { usePhysicalKeys: true, preventDefault: true };
  useHotkeys([
    ['J', () => move(1), physical],
    ['K', () => move(-1), physical],
    ['B', bid, physical],
    ['Slash', () => filters.current?.querySelector<HTMLElement>('input, button')?.focus(), physical],
    ['shift+Slash', () => setHelp(true), physical],
  ]);
  return (
    <>
      <Tooltip label={t('shortcuts.title')}>
        <ActionIcon variant="subtle" color="gray" aria-label={t('shortcuts.title')} onClick={() => setHelp(true)} data-testid="shortcuts-help">
          <IconKeyboard size={18} />
        </ActionIcon>
      </Tooltip>
      <Modal opened={help} onClose={() => setHelp(false)} title={t('shortcuts.title')} centered>
        <Stack gap="xs" data-testid="shortcuts-list">
          {BOARD_SHORTCUTS.map((s) => (
            <Group key={s.id} justify="space-between" wrap="nowrap">
              <Text size="sm">{t(`shortcuts.${s.id}`)}</Text>
              <Group gap={4} wrap="nowrap" dir="ltr">
                {s.keys.map((k) => (
                  <Kbd key={k}>{k}</Kbd>
                ))}
              </Group>
            </Group>
          ))}
        </Stack>
      </Modal>
    </>
  );
}
